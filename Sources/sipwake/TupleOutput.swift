import Foundation
import Model
import Ports
import SIPWake

/// How the CLI shows device tuples: JSON objects (every field, tokens in
/// full) and table rows (tokens shortened).
enum TupleOutput {
    static func json(_ t: DeviceTuple) -> [String: Any] {
        var row: [String: Any] = [
            "id": Int(t.id), "username": t.username, "selector": t.selector,
            "created_at": JSONOutput.timestamp(t.createdAt),
            "last_seen_at": JSONOutput.timestamp(t.lastSeenAt),
        ]
        row["app_id_calls"] = t.appIDCalls
        row["token_calls"] = t.tokenCalls
        row["app_id_other"] = t.appIDOther
        row["token_other"] = t.tokenOther
        row["platform"] = t.platform?.rawValue
        row["last_push_at"] = t.lastPushAt.map(JSONOutput.timestamp)
        row["last_push_status"] = t.lastPushStatus
        row["last_push_result"] = t.lastPushResult
        return row
    }

    static let headers = ["ID", "USER", "SELECTOR", "PLATFORM", "CALLS", "OTHER", "LAST-SEEN", "LAST-PUSH"]

    static func tableRow(_ t: DeviceTuple) -> [String] {
        [String(t.id), t.username, t.selector, t.platform?.rawValue ?? "-",
         pair(t.appIDCalls, t.tokenCalls), pair(t.appIDOther, t.tokenOther),
         JSONOutput.timestamp(t.lastSeenAt), push(t)]
    }

    /// `app.id token…`, or `-`.
    static func pair(_ appID: String?, _ token: String?) -> String {
        guard let appID, let token else { return "-" }
        return "\(appID) \(short(token))"
    }

    /// The first 8 characters and an ellipsis: enough to tell tokens apart,
    /// not enough to push with.
    static func short(_ token: String) -> String {
        token.count <= 8 ? token : String(token.prefix(8)) + "…"
    }

    static func push(_ t: DeviceTuple) -> String {
        guard let at = t.lastPushAt else { return "-" }
        let status = t.lastPushStatus.map { " \($0)" } ?? ""
        return "\(JSONOutput.timestamp(at))\(status) \(t.lastPushResult ?? "")"
            .trimmingCharacters(in: .whitespaces)
    }

    static func plural(_ count: Int) -> String {
        "\(count) tuple\(count == 1 ? "" : "s")"
    }
}
