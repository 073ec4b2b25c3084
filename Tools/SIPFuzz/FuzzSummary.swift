import Foundation
import SIPAttackSupport

/// The outcome of a fuzzing run, and the report `sip-fuzz` prints.
public struct FuzzSummary: Sendable {
    public let configuration: FuzzConfiguration
    /// Seconds spent sending inputs.
    public var elapsed: Double = 0
    public var transports: [FuzzTransport: TransportCounts] = [:]
    public var crashes = 0
    public var stalls = 0
    /// What happened, in order: "crash at +12.3 s: the target process 42 exited".
    public var events: [String] = []
    public var liveness = LivenessState()
    public var memory: MemoryTrack { liveness.memory }
    /// Folders of saved inputs.
    public var saved: [String] = []
    /// Inputs not sent because the server could have forwarded them off the machine.
    public var refusedAsUnsafe = 0

    public init(configuration: FuzzConfiguration) {
        self.configuration = configuration
    }

    public var inputsSent: Int { transports.values.reduce(0) { $0 + $1.inputs } }

    public var passed: Bool { crashes == 0 && stalls == 0 }

    public var latency: LatencyStatistics { LatencyStatistics(liveness.latencies) }

    public var report: String {
        let c = configuration
        var lines: [String] = ["sip-fuzz summary"]
        let tls = c.tlsTarget.map { " (tls \($0))" } ?? ""
        lines.append(row("target", "\(c.target)\(tls), inputs from \(c.source.host), probe from \(c.probeSource.host)"))
        lines.append(row("seed", "\(c.seed) (the same --seed sends the same inputs)"))
        lines.append(row("ran", String(format: "%.1f s at up to %.0f inputs/s", elapsed, c.rate)))
        let order = c.transports.sorted()
        let perTransport = order.map { "\($0.rawValue) \(transports[$0]?.inputs ?? 0)" }.joined(separator: ", ")
        lines.append(row("inputs sent", "\(perTransport), total \(inputsSent)"))
        for transport in order {
            let t = transports[transport] ?? TransportCounts()
            var text = "\(t.inputs) inputs, \(ByteCount.text(t.bytesSent))"
            if transport.isStream { text += " on \(t.connections) connections" }
            text += "; \(t.responses) responses back (\(ByteCount.text(t.bytesReceived)))"
            if transport.isStream {
                text += "; \(t.connectFailures) connect failures, \(t.writeFailures) write failures, \(t.closedByServer) closed by the server"
            } else {
                text += "; \(t.writeFailures) send errors"
            }
            lines.append(row("  \(transport.rawValue)", text))
        }
        lines.append(row("crashes", "\(crashes)"))
        lines.append(row("stalls", "\(stalls)"))
        for event in events { lines.append(row("", event)) }
        let stats = latency
        lines.append(row("liveness", "\(liveness.probesSent) probes, \(liveness.probesAnswered) answered, \(liveness.retransmissions) retransmissions"))
        lines.append(row("probe latency", "median \(LatencyStatistics.milliseconds(stats.median)) ms, p99 \(LatencyStatistics.milliseconds(stats.p99)) ms, max \(LatencyStatistics.milliseconds(stats.max)) ms"))
        lines.append(row("target RSS", memory.summary))
        lines.append(row("saved inputs", saved.isEmpty ? "none" : saved.joined(separator: ", ")))
        if refusedAsUnsafe > 0 {
            lines.append(row("not sent", "\(refusedAsUnsafe) inputs the server could have forwarded off the machine"))
        }
        lines.append(row("result", passed ? "PASS" : (crashes > 0 ? "CRASH" : "STALL")))
        return lines.joined(separator: "\n")
    }

    private func row(_ name: String, _ value: String) -> String {
        name.padding(toLength: 16, withPad: " ", startingAt: 0) + value
    }
}
