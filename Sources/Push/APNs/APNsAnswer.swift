import Foundation
import Model
import Ports

/// Turns APNs' answer into a ``PushResult``. Apple's error bodies are
/// `{"reason": "BadDeviceToken"}`; the detail carries that reason.
///
/// | answer | result |
/// |---|---|
/// | 200 | delivered |
/// | 410 (`Unregistered`), 400 `BadDeviceToken` or `DeviceTokenNotForTopic` | token gone |
/// | 403 `ExpiredProviderToken` | retryable, after the provider token is dropped for renewal |
/// | 403 `InvalidProviderToken` and other 403 | failed (the key, key id or team id is wrong) |
/// | 413 `PayloadTooLarge` | failed: a configuration error (the app's format makes payloads too big) |
/// | 429, 5xx | retryable, with `Retry-After` when given |
/// | other | failed, with Apple's reason |
///
/// `BadDeviceToken` is also Apple's answer to a sandbox token sent to the
/// production service: an app with development builds needs `sandbox = true`.
public enum APNsAnswer {
    /// What APNs' reason `reason` means for HTTP `status`; `renewCredential`
    /// is called for an expired provider token.
    public static func classify(status: Int, headers: [PushHTTPHeader], body: Data,
                                now: Date = Date(), renewCredential: () -> Void = {}) -> PushResult {
        let reason = Self.reason(in: body)
        let detail = PushAnswerDetail.truncated(reason ?? "HTTP \(status)")
        switch status {
        case 200..<300:
            return .delivered(status: status)
        case 410:
            return .tokenGone(status: status, detail: detail)
        case 400 where reason == "BadDeviceToken" || reason == "DeviceTokenNotForTopic":
            return .tokenGone(status: status, detail: detail)
        case 403 where reason == "ExpiredProviderToken":
            renewCredential()
            return .retryable(status: status, detail: "ExpiredProviderToken: provider token renewed")
        case 403 where reason == "InvalidProviderToken":
            return .failed(status: status,
                           detail: "InvalidProviderToken: configuration error (check the signing key, key id and team id)")
        case 413:
            return .failed(status: status, detail: "\(reason ?? "PayloadTooLarge"): configuration error (the app's payload format makes pushes too large)")
        case 429, 500..<600:
            return .retryable(status: status, detail: detail, retryAfter: PushRetryAfter.seconds(in: headers, now: now))
        default:
            return .failed(status: status, detail: detail)
        }
    }

    /// The `reason` of an APNs error body; nil when there is none.
    static func reason(in body: Data) -> String? {
        guard let object = PushJSONValue.object(from: body), case .string(let reason)? = object["reason"],
              !reason.isEmpty else { return nil }
        return reason
    }
}
