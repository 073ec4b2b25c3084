import Foundation
import Model
import Ports

/// What the customer's backend answered to a webhook, as a ``PushResult``
/// (the contract is seed 003's, in docs/push.md):
///
/// 1. 2xx: it found the user's devices and is waking them: delivered, the
///    call waits for them as it does after a push.
/// 2. 404: it knows no device of the user: `token-gone`, which for the
///    webhook means "do not wait" (nothing is deleted).
/// 3. 408, 429, 5xx, a timeout or a network error: retryable (the call
///    retries once while it is pending).
/// 4. Anything else (401 for a signature it refused, other 4xx, 3xx): failed.
public enum WebhookAnswer {
    /// Longest detail kept from the backend's answer.
    public static let maxDetailLength = 200

    public static func classify(status: Int, body: Data) -> PushResult {
        let text = String(decoding: body.prefix(4096), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let said = text.isEmpty ? nil : String(text.prefix(maxDetailLength))
        switch status {
        case 200..<300:
            return .delivered(status: status)
        case 404:
            return .tokenGone(status: status, detail: "no device for this user" + (said.map { ": \($0)" } ?? ""))
        case 408, 429, 500..<600:
            return .retryable(status: status, detail: said)
        default:
            return .failed(status: status, detail: said)
        }
    }

    /// A request that got no answer: a timeout or a network error is worth
    /// retrying; a bad URL or certificate is not.
    public static func classify(_ failure: PushTransportFailure) -> PushResult {
        let kind: PushResultKind = failure.reason == .setup ? .failed : .retryable
        let prefix = failure.reason == .timeout ? "timeout: " : ""
        let detail = prefix + failure.message
        return PushResult(kind: kind, httpStatus: nil, detail: String(detail.prefix(maxDetailLength)))
    }
}
