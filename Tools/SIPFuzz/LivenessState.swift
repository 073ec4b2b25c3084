import SIPAttackSupport

/// What the liveness monitor has seen so far.
public struct LivenessState: Sendable {
    public var crashed = false
    public var stalled = false
    public var stalls = 0
    public var probesSent = 0
    public var probesAnswered = 0
    public var retransmissions = 0
    /// Latencies of answered probes, first transmission to answer, seconds.
    public var latencies: [Double] = []
    public var lastAnsweredProbeSentAt: Double?
    public var memory = MemoryTrack()
    /// Events not yet taken by the sender.
    var pending: [FuzzEvent] = []

    public init() {}
}
