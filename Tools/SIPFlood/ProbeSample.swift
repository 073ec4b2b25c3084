/// One REGISTER exchange of the legitimate client.
public struct ProbeSample: Sendable, Equatable {
    public let phase: FloodPhase
    public let outcome: ProbeOutcome
    /// Sending the REGISTER with credentials to its final response, seconds.
    public let withCredentials: Double?
    /// The first REGISTER (answered by 401) to the final response, seconds.
    public let wholeExchange: Double?
    public let retransmissions: Int

    public init(phase: FloodPhase, outcome: ProbeOutcome, withCredentials: Double?, wholeExchange: Double?, retransmissions: Int) {
        self.phase = phase
        self.outcome = outcome
        self.withCredentials = withCredentials
        self.wholeExchange = wholeExchange
        self.retransmissions = retransmissions
    }
}
