import Foundation
import Model
import Ports
import SIPWake

/// How the CLI shows device tuples in tables (tokens shortened); JSON is
/// `DeviceTupleJSON`.
enum TupleOutput {
    static let headers = ["ID", "USER", "SELECTOR", "PLATFORM", "PROVIDER", "CALLS", "OTHER", "LAST-SEEN", "LAST-PUSH"]

    static func tableRow(_ t: DeviceTuple) -> [String] {
        [String(t.id), t.username, t.selector, t.platform?.rawValue ?? "-", t.provider,
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
