import SIPAttackSupport
import Synchronization

/// Where the liveness monitor's thread writes what it sees and the sender's
/// thread reads it. Sendable through its mutex.
public final class LivenessBoard: Sendable {
    private let state = Mutex(LivenessState())

    public init() {}

    public var snapshot: LivenessState { state.withLock { $0 } }

    public var isCrashed: Bool { state.withLock { $0.crashed } }

    public var isStalled: Bool { state.withLock { $0.stalled } }

    /// The events since the last call, oldest first.
    public func takeEvents() -> [FuzzEvent] {
        state.withLock { state in
            defer { state.pending.removeAll() }
            return state.pending
        }
    }

    func probeSent() {
        state.withLock { $0.probesSent += 1 }
    }

    func probeRetransmitted() {
        state.withLock { $0.retransmissions += 1 }
    }

    func answered(latency: Double, sentAt: Double, now: Double) {
        state.withLock { state in
            state.probesAnswered += 1
            state.latencies.append(latency)
            state.lastAnsweredProbeSentAt = max(state.lastAnsweredProbeSentAt ?? sentAt, sentAt)
            if state.stalled {
                state.stalled = false
                state.pending.append(FuzzEvent(kind: .recovered, at: now, reason: "a probe was answered again",
                                               lastAnsweredProbeSentAt: state.lastAnsweredProbeSentAt))
            }
        }
    }

    func stall(at now: Double, reason: String) {
        state.withLock { state in
            guard !state.stalled, !state.crashed else { return }
            state.stalled = true
            state.stalls += 1
            state.pending.append(FuzzEvent(kind: .stall, at: now, reason: reason,
                                           lastAnsweredProbeSentAt: state.lastAnsweredProbeSentAt))
        }
    }

    func crash(at now: Double, reason: String) {
        state.withLock { state in
            guard !state.crashed else { return }
            state.crashed = true
            state.pending.append(FuzzEvent(kind: .crash, at: now, reason: reason,
                                           lastAnsweredProbeSentAt: state.lastAnsweredProbeSentAt))
        }
    }

    public func recordMemory(_ bytes: Int?) {
        state.withLock { $0.memory.record(bytes) }
    }
}
