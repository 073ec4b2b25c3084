import Ports

/// What waits for the HTTP thread: a push (its provider builds the request
/// and reads the answer) or a plain HTTP exchange.
enum PendingWork: Sendable {
    case push(PendingPush)
    case request(PendingRequest)

    /// The answer every exchange gets when the client is stopping or stopped.
    static let stoppedAnswer = PushHTTPAnswer.transportFailure(
        PushTransportFailure(reason: .setup, message: "push client stopped"))
}
