/// How a call ended, as shown by `sipwake calls` and the admin API.
public enum CallOutcome: String, Sendable, Codable, CaseIterable {
    /// A device of the callee answered (2xx).
    case answered
    /// The caller's CANCEL said it was answered elsewhere (`Reason: SIP;cause=200`).
    case answeredElsewhere = "answered-elsewhere"
    /// A device declined (6xx).
    case declined
    /// The caller cancelled before anyone answered.
    case cancelled
    /// The wake window closed with no answer.
    case noAnswer = "no-answer"
    /// Every branch failed and no pushed device could still register.
    case unreachable
    /// The callee had no registered contact and no device tuple.
    case noDevices = "no-devices"
    /// Refused before forking: unknown user, loop, bad request.
    case rejected
}
