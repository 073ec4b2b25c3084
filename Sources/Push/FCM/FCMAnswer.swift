import Foundation
import Model
import Ports

/// Turns FCM's answer (HTTP v1 API) into a ``PushResult``:
///
/// | answer | result |
/// |---|---|
/// | 200 | delivered |
/// | 404 with errorCode `UNREGISTERED` | token gone |
/// | 400 `INVALID_ARGUMENT` naming the registration token (`message.token`) | token gone |
/// | other 400 `INVALID_ARGUMENT` | failed (the payload is wrong) |
/// | 403 `SENDER_ID_MISMATCH` | failed: a configuration error (the token belongs to another Firebase project) |
/// | 401 | retryable, after the access token is dropped for renewal |
/// | 429, 5xx | retryable, with `Retry-After` (seconds or an HTTP date) when given |
/// | other | failed, with FCM's error code and message |
public enum FCMAnswer {
    /// What FCM's answer means; `renewCredential` is called when the access token was refused.
    public static func classify(status: Int, headers: [PushHTTPHeader], body: Data,
                                now: Date = Date(), renewCredential: () -> Void = {}) -> PushResult {
        let error = FCMError(body: body)
        let detail = PushAnswerDetail.truncated(error?.detail ?? "HTTP \(status)")
        switch status {
        case 200..<300:
            return .delivered(status: status)
        case 404 where error?.errorCode == "UNREGISTERED":
            return .tokenGone(status: status, detail: detail)
        case 400 where (error?.errorCode == "INVALID_ARGUMENT" || error?.status == "INVALID_ARGUMENT")
            && error?.namesRegistrationToken == true:
            return .tokenGone(status: status, detail: detail)
        case 403 where error?.errorCode == "SENDER_ID_MISMATCH":
            return .failed(status: status,
                           detail: "SENDER_ID_MISMATCH: configuration error (the token belongs to another Firebase project)")
        case 401:
            renewCredential()
            return .retryable(status: status, detail: "UNAUTHENTICATED: access token renewed")
        case 429, 500..<600:
            return .retryable(status: status, detail: detail, retryAfter: PushRetryAfter.seconds(in: headers, now: now))
        default:
            return .failed(status: status, detail: detail)
        }
    }
}
