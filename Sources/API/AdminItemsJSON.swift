/// A whole list in the admin API, without paging: `{"items": […]}`.
struct AdminItemsJSON<Item: Encodable & Sendable>: Encodable, Sendable {
    let items: [Item]
}
