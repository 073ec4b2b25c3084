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
    /// Nothing to ring or wake: no registered contact, and no device tuple
    /// (or pushes off: the user's wake-up hold, or `push.enabled = false`).
    case noDevices = "no-devices"
    /// sipwake stopped while the call was in progress: a graceful shutdown
    /// (503 to the caller, missed notifications to the devices), or a crash,
    /// in which case the record is closed at the next start.
    case interrupted
    /// Refused before ringing anyone: an unknown user (404), the caller's
    /// credentials failed, too many hops (483), a Request-URI that is not
    /// SIP; the record's `reason` says which.
    case rejected

    /// Reads an outcome as an operator types it (any case).
    public init?(name: String) {
        self.init(rawValue: name.lowercased())
    }

    /// Every outcome's name, for error messages.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
