import SIPAttackSupport

/// Runs on its own thread while the fuzzer sends: an OPTIONS every
/// `interval` over UDP from `source`, retransmitted at 0.5 s and 1.5 s, each
/// to be answered within `timeout` or it is a stall; the target's process
/// checked and its memory sampled at every probe.
public struct LivenessMonitor: Sendable {
    public let target: LoopbackEndpoint
    public let source: LoopbackEndpoint
    public let interval: Double
    public let timeout: Double
    public let process: TargetProcess?

    public init(target: LoopbackEndpoint, source: LoopbackEndpoint, interval: Double, timeout: Double, process: TargetProcess?) {
        self.target = target
        self.source = source
        self.interval = interval
        self.timeout = timeout
        self.process = process
    }

    private struct Probe {
        let sentAt: Double
        var nextRetransmission: Double
        var backoff: Double
        let bytes: [UInt8]
        /// Already counted in a stall: kept only so that a late answer ends it.
        var expired = false
    }

    public func run(board: LivenessBoard, stop: StopFlag) {
        guard let socket = try? UDPSocket(source: source, target: target) else {
            board.crash(at: MonotonicClock.now(), reason: "the liveness socket could not be opened")
            return
        }
        let nonce = String(UInt64(MonotonicClock.now() * 1e9) % 1_000_000_007, radix: 36)
        var outstanding: [String: Probe] = [:]
        var number = 0
        var nextProbe = MonotonicClock.now()
        var refusals = 0
        while !stop.isStopped {
            var now = MonotonicClock.now()
            if now >= nextProbe {
                if let process {
                    guard process.isAlive else {
                        board.crash(at: now, reason: "the target process \(process.pid) exited")
                        return
                    }
                    board.recordMemory(process.residentBytes)
                }
                number += 1
                let (callID, bytes) = OptionsProbe.request(number: number, nonce: nonce, socket: socket, source: source, target: target)
                socket.send(bytes)
                board.probeSent()
                outstanding[callID] = Probe(sentAt: now, nextRetransmission: now + 0.5, backoff: 1.0, bytes: bytes)
                nextProbe = max(nextProbe + interval, now)
            }
            for (callID, probe) in outstanding {
                if probe.expired {
                    if now - probe.sentAt > 32 { outstanding[callID] = nil }
                } else if now - probe.sentAt > timeout {
                    board.stall(at: now, reason: "an OPTIONS probe was not answered within the probe timeout")
                    outstanding[callID]?.expired = true
                } else if now >= probe.nextRetransmission {
                    socket.send(probe.bytes)
                    board.probeRetransmitted()
                    outstanding[callID]?.nextRetransmission = now + probe.backoff
                    outstanding[callID]?.backoff = probe.backoff * 2
                }
            }
            let deadlines = [nextProbe] + outstanding.values.filter { !$0.expired }.map { min($0.nextRetransmission, $0.sentAt + timeout) }
            let wait = min(max(0, (deadlines.min() ?? nextProbe) - MonotonicClock.now()), 0.05)
            switch socket.receive(timeout: wait) {
            case .datagram(let bytes):
                refusals = 0
                now = MonotonicClock.now()
                if let callID = RawSIPMessage(bytes).callID, let probe = outstanding.removeValue(forKey: callID) {
                    board.answered(latency: now - probe.sentAt, sentAt: probe.sentAt, now: now)
                }
            case .refused:
                refusals += 1
                if process == nil && refusals >= 2 {
                    board.crash(at: MonotonicClock.now(), reason: "the target's port answers ICMP port unreachable")
                    return
                }
            case .timeout:
                break
            }
        }
    }
}
