import Model
import Ports

/// A push handed to ``PushClient/send(_:completion:)`` that the HTTP thread
/// has not started yet: the message, its provider and the request it built.
struct PendingPush: Sendable {
    let message: PushMessage
    let provider: any PushProvider
    let request: PushHTTPRequest
    let completion: @Sendable (PushResult) -> Void
}
