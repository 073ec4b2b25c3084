/// Why sipwake cancels a branch; the proxy turns it into a `Reason` header
/// (RFC 3326) on the CANCEL.
public enum CancelReason: String, Sendable, Equatable {
    /// Another branch answered: `Reason: SIP;cause=200;text="Call completed elsewhere"`.
    case answeredElsewhere = "answered-elsewhere"
    /// The caller cancelled; the caller's own Reason is passed on.
    case callerCancelled = "caller-cancelled"
    /// Another branch declined with a 6xx.
    case declined
    /// The wake window closed with no answer.
    case noAnswer = "no-answer"
    /// The device re-registered without a provisional response: its new
    /// INVITE replaces this branch.
    case replaced
    /// The device removed its binding while its branch was pending.
    case unregistered
    /// sipwake is shutting down: `Reason: SIP;cause=503;text="Shutting down"`.
    case shutdown
}
