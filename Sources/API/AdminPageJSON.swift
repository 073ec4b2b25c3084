/// One page of a list in the admin API: the items, how many there are in
/// all, and the paging that was asked for.
struct AdminPageJSON<Item: Encodable & Sendable>: Encodable, Sendable {
    let items: [Item]
    let total: Int
    let limit: Int
    let offset: Int
}
