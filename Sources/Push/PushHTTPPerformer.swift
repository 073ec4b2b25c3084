import Ports

/// Something that sends one HTTP request and gives back its answer: the
/// ``PushClient`` (on its libcurl thread, with the pushes' TLS settings). The
/// FCM credential maker exchanges its OAuth assertion through it.
public protocol PushHTTPPerformer: Sendable {
    func perform(_ request: PushHTTPRequest) async -> PushHTTPAnswer
}
