import Foundation
import Model
import Ports

/// Turns the Acrobits gateway's answer, or the reason there was none, into a ``PushResult``.
/// The rules, in order (docs/push.md has them as a table):
///
/// 1. HTTP 404 or 410: the token is gone.
/// 2. 2xx or 4xx (not 429) whose JSON body has a `status`, `code`, `reason` or `error`
///    field (at the top or one object down) saying the token is not registered
///    or invalid: the token is gone.
/// 3. Other 2xx: delivered.
/// 4. 429 and 5xx: retryable.
/// 5. Anything else (other 4xx, 1xx, 3xx): failed.
public enum AcrobitsAnswer {
    /// Longest detail kept from the gateway's message.
    public static let maxDetailLength = 200

    /// Field names whose value says what went wrong.
    static let verdictKeys: Set<String> = ["status", "code", "reason", "error"]
    /// Field names whose value is the gateway's human-readable message.
    static let messageKeys = ["message", "error_description", "description", "reason", "error"]
    /// Verdicts (lowercased, without spaces, `-` or `_`) meaning the token is gone.
    static let goneWords = ["notregistered", "unregistered", "baddevicetoken", "invalidregistration", "invalidtoken"]
    static let goneNumbers: Set<String> = ["404", "410"]

    /// The result of an HTTP answer with `status` and `body`.
    public static func classify(status: Int, body: Data) -> PushResult {
        let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
        let detail = Self.detail(object: object, body: body)
        let kind: PushResultKind
        switch status {
        case 404, 410:
            kind = .tokenGone
        case 429, 500..<600:
            kind = .retryable
        case 200..<300, 400..<500:
            if let object, saysTokenGone(object) {
                kind = .tokenGone
            } else {
                kind = (200..<300).contains(status) ? .delivered : .failed
            }
        default:
            kind = .failed
        }
        return PushResult(kind: kind, httpStatus: status, detail: detail)
    }

    /// The result of a transfer that got no HTTP answer: timeouts and network
    /// errors are worth retrying; a bad URL, protocol or certificate is not.
    public static func classify(_ failure: PushTransportFailure) -> PushResult {
        let kind: PushResultKind = failure.reason == .setup ? .failed : .retryable
        let prefix = failure.reason == .timeout ? "timeout: " : ""
        return PushResult(kind: kind, httpStatus: nil, detail: truncated(prefix + failure.message))
    }

    /// Whether a verdict field, at the top or in an object one level down, says the token is gone.
    static func saysTokenGone(_ object: [String: Any], depth: Int = 0) -> Bool {
        for (key, value) in object {
            if verdictKeys.contains(key.lowercased()), let text = scalarText(value), isGoneVerdict(text) {
                return true
            }
            if depth == 0, let nested = value as? [String: Any], saysTokenGone(nested, depth: 1) {
                return true
            }
        }
        return false
    }

    static func isGoneVerdict(_ text: String) -> Bool {
        let word = text.lowercased().filter { !" -_".contains($0) }
        return goneNumbers.contains(word) || goneWords.contains { word.contains($0) }
    }

    /// A string or number value as text; nil for objects, arrays and null.
    static func scalarText(_ value: Any) -> String? {
        if let string = value as? String { return string }
        if let number = value as? NSNumber { return number.stringValue }
        return nil
    }

    /// The gateway's message field when the body has one, else the body text; nil for an empty body.
    static func detail(object: [String: Any]?, body: Data) -> String? {
        if let object {
            for key in messageKeys {
                if let text = object[key] as? String, !text.isEmpty { return truncated(text) }
                if let nested = object[key] as? [String: Any], let text = nested["message"] as? String, !text.isEmpty {
                    return truncated(text)
                }
            }
        }
        let text = String(decoding: body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : truncated(text)
    }

    static func truncated(_ text: String) -> String {
        text.count <= maxDetailLength ? text : String(text.prefix(maxDetailLength))
    }
}
