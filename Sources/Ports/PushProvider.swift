import Foundation
import Model

/// A push service that wakes devices (the Acrobits gateway, APNs, FCM): it
/// turns a ``PushMessage`` into the HTTP request the service expects and
/// reads the service's answer. Providers do no I/O of their own; the HTTP
/// transport sends what they build, and credentials (JWTs, OAuth tokens) are
/// renewed beside them by a service. They must not put secrets in results.
public protocol PushProvider: Sendable {
    /// The kind of service, as metrics and device tuples name it (`acrobits`, `apns`, `fcm`).
    var name: String { get }
    /// What to do with `message` now: the request that sends it, a wait
    /// for the provider's credential, or the reason it cannot be sent.
    func request(for message: PushMessage, at now: Date) -> PushRequestPlan
    /// What the answer to `request` means. A provider may act on it (an
    /// expired credential is renewed) before it returns.
    func classify(_ answer: PushHTTPAnswer, to request: PushHTTPRequest) -> PushResult
}
