/// Something the liveness monitor saw.
public struct FuzzEvent: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// The target process exited (or, without `--pid`, its port stopped
        /// answering with ICMP port unreachable).
        case crash
        /// A probe went unanswered for the whole timeout.
        case stall
        /// A probe was answered again after a stall.
        case recovered
    }

    public let kind: Kind
    /// MonotonicClock seconds.
    public let at: Double
    public let reason: String
    /// When the last probe that the server did answer was sent: the inputs
    /// since then (and a few before) are the suspects.
    public let lastAnsweredProbeSentAt: Double?

    public init(kind: Kind, at: Double, reason: String, lastAnsweredProbeSentAt: Double?) {
        self.kind = kind
        self.at = at
        self.reason = reason
        self.lastAnsweredProbeSentAt = lastAnsweredProbeSentAt
    }
}
