/// A device tuple as programs read it: the admin API, the Push Token
/// Reporter's answer and `sipwake tuples list|show --json` print the same
/// object. Every field, nulls explicit, tokens in full, times ISO 8601 UTC.
public struct DeviceTupleJSON: Encodable, Sendable {
    let id: Int64
    let username: String
    let selector: String
    @ExplicitNull var appIDCalls: String?
    @ExplicitNull var tokenCalls: String?
    @ExplicitNull var appIDOther: String?
    @ExplicitNull var tokenOther: String?
    @ExplicitNull var platform: String?
    let provider: String
    let createdAt: String
    let lastSeenAt: String
    @ExplicitNull var lastPushAt: String?
    @ExplicitNull var lastPushStatus: Int?
    @ExplicitNull var lastPushResult: String?

    public init(_ t: DeviceTuple) {
        id = t.id
        username = t.username
        selector = t.selector
        appIDCalls = t.appIDCalls
        tokenCalls = t.tokenCalls
        appIDOther = t.appIDOther
        tokenOther = t.tokenOther
        platform = t.platform?.rawValue
        provider = t.provider
        createdAt = ISO8601Time.seconds(t.createdAt)
        lastSeenAt = ISO8601Time.seconds(t.lastSeenAt)
        lastPushAt = t.lastPushAt.map(ISO8601Time.seconds)
        lastPushStatus = t.lastPushStatus
        lastPushResult = t.lastPushResult
    }
}
