import Model

/// A device tuple as `sipwake tuples list|show --json` prints it: every
/// field, tokens in full; a field with no value is left out.
struct TupleOutputJSON: Encodable {
    let id: Int64
    let username: String
    let selector: String
    let appIDCalls: String?
    let tokenCalls: String?
    let appIDOther: String?
    let tokenOther: String?
    let platform: String?
    let provider: String
    let createdAt: String
    let lastSeenAt: String
    let lastPushAt: String?
    let lastPushStatus: Int?
    let lastPushResult: String?

    enum CodingKeys: String, CodingKey {
        case id, username, selector, platform, provider
        case appIDCalls = "app_id_calls"
        case tokenCalls = "token_calls"
        case appIDOther = "app_id_other"
        case tokenOther = "token_other"
        case createdAt = "created_at"
        case lastSeenAt = "last_seen_at"
        case lastPushAt = "last_push_at"
        case lastPushStatus = "last_push_status"
        case lastPushResult = "last_push_result"
    }

    init(_ t: DeviceTuple) {
        id = t.id
        username = t.username
        selector = t.selector
        appIDCalls = t.appIDCalls
        tokenCalls = t.tokenCalls
        appIDOther = t.appIDOther
        tokenOther = t.tokenOther
        platform = t.platform?.rawValue
        provider = t.provider
        createdAt = JSONOutput.timestamp(t.createdAt)
        lastSeenAt = JSONOutput.timestamp(t.lastSeenAt)
        lastPushAt = t.lastPushAt.map(JSONOutput.timestamp)
        lastPushStatus = t.lastPushStatus
        lastPushResult = t.lastPushResult
    }
}
