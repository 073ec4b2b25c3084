/// The body of an admin API refusal: what is wrong and, when one field is
/// at fault, its JSON name.
struct AdminErrorJSON: Encodable, Sendable {
    let error: String
    /// Left out when no single field is at fault.
    let field: String?
}
