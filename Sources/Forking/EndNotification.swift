/// How the devices of a callee learn that a call they were rung for is over
/// (`calls.end_notification`).
public enum EndNotification: String, Sendable, Equatable, CaseIterable {
    /// Missed and answered-elsewhere pushes (through each device tuple's push provider).
    case push
    /// A SIP MESSAGE with `Content-Type: application/x-acro-missed-call` and
    /// `X-Push-ID` to every registered contact.
    case message
    /// Both.
    case both

    public var sendsPush: Bool { self != .message }
    public var sendsMessage: Bool { self != .push }
}
