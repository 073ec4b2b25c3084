/// A response the phone received to one of its requests, copied out of Sofia.
/// A response Sofia made up itself (a timeout is 408) has no text or headers.
struct SofiaPhoneResponse: Sendable {
    let status: Int
    let reason: String
    /// Every header of the response (lower-cased names to values).
    let headers: SofiaPhoneHeaders
    /// The response as it arrived; empty when Sofia made it up.
    let text: String

    /// The first value of a header, by case-insensitive name.
    func header(_ name: String) -> String? { headers.first(name) }
}
