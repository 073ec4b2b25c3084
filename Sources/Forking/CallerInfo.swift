/// Who is calling, from the INVITE's From header: what the pushes show.
public struct CallerInfo: Sendable, Equatable {
    /// The From URI.
    public var uri: String
    /// The display name, without quotes.
    public var displayName: String?
    /// The From URI's user part (the push's `UserName`).
    public var user: String?
    /// The From URI's host (the push's `Domain`).
    public var domain: String?

    public init(uri: String, displayName: String? = nil, user: String? = nil, domain: String? = nil) {
        self.uri = uri
        self.displayName = displayName
        self.user = user
        self.domain = domain
    }
}
