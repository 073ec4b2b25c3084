import Model

/// Where the call proxy hands the pushes of its calls. Sending never waits:
/// `completion` is called exactly once, later, with the outcome.
public protocol PushSender: Sendable {
    func send(_ message: PushMessage, completion: @escaping @Sendable (PushResult) -> Void)
}
