import Ports

/// An HTTP exchange handed to ``PushClient/perform(_:)`` (an OAuth token
/// request): sent on the HTTP thread like a push, its answer given back as is.
struct PendingRequest: Sendable {
    let request: PushHTTPRequest
    let completion: @Sendable (PushHTTPAnswer) -> Void
}
