import Foundation
import Storage

/// The 200 answer of the reporters:
/// `{"status":"ok","created":…,"tuple":{…}}` for a report,
/// `{"status":"ok","removed":…}` for a removal.
struct ReporterResult: Encodable, Sendable {
    /// A stored tuple as the reporters show it; times in ISO 8601 (UTC).
    struct Tuple: Encodable, Sendable {
        var id: Int64
        var username: String
        var selector: String
        var appIDCalls: String?
        var tokenCalls: String?
        var appIDOther: String?
        var tokenOther: String?
        var platform: String?
        var lastSeenAt: String

        enum CodingKeys: String, CodingKey {
            case id, username, selector, platform
            case appIDCalls = "app_id_calls"
            case tokenCalls = "token_calls"
            case appIDOther = "app_id_other"
            case tokenOther = "token_other"
            case lastSeenAt = "last_seen_at"
        }

        init(_ tuple: DeviceTuple) {
            id = tuple.id
            username = tuple.username
            selector = tuple.selector
            appIDCalls = tuple.appIDCalls
            tokenCalls = tuple.tokenCalls
            appIDOther = tuple.appIDOther
            tokenOther = tuple.tokenOther
            platform = tuple.platform?.rawValue
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            lastSeenAt = formatter.string(from: tuple.lastSeenAt)
        }

        /// Absent pairs are `null`, not missing: the answer always has every key.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(username, forKey: .username)
            try container.encode(selector, forKey: .selector)
            try container.encode(appIDCalls, forKey: .appIDCalls)
            try container.encode(tokenCalls, forKey: .tokenCalls)
            try container.encode(appIDOther, forKey: .appIDOther)
            try container.encode(tokenOther, forKey: .tokenOther)
            try container.encode(platform, forKey: .platform)
            try container.encode(lastSeenAt, forKey: .lastSeenAt)
        }
    }

    var status = "ok"
    var created: Bool?
    var removed: Bool?
    var tuple: Tuple?

    static func reported(_ tuple: DeviceTuple, created: Bool) -> ReporterResult {
        ReporterResult(created: created, tuple: Tuple(tuple))
    }

    static func removal(removed: Bool) -> ReporterResult {
        ReporterResult(removed: removed)
    }
}
