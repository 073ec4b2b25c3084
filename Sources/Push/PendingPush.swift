import Model
import Ports

/// A push handed to ``PushClient/send(_:completion:)`` that the HTTP thread
/// has not started yet: the message and its provider. The provider builds
/// the request on the HTTP thread, when the push starts.
struct PendingPush: Sendable {
    let message: PushMessage
    let provider: any PushProvider
    let completion: @Sendable (PushResult) -> Void
    /// When it was handed to the HTTP thread: its answer's latency starts here.
    let queuedAt = ContinuousClock.now
}
