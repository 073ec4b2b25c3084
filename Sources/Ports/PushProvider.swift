import Model

/// A push service that wakes devices (the Acrobits gateway today): it turns a
/// ``PushMessage`` into the HTTP request the service expects and reads the
/// service's answer. Providers are values that do no I/O; the HTTP transport
/// sends what they build. They must not put secrets in results.
public protocol PushProvider: Sendable {
    /// The name device tuples use to choose this provider (`acrobits`).
    var name: String { get }
    /// The HTTP request that sends `message`.
    func request(for message: PushMessage) -> PushHTTPRequest
    /// What the answer to that request means.
    func classify(_ answer: PushHTTPAnswer) -> PushResult
}
