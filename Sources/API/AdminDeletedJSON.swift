/// The answer to a delete of several tuples: how many were deleted.
struct AdminDeletedJSON: Encodable, Sendable {
    let deleted: Int
}
