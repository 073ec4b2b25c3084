import Foundation
import SIPAttackSupport

/// What a flood run measured, and the Markdown block `sip-flood` prints for
/// docs/benchmarks.md.
public struct FloodSummary: Sendable {
    public let configuration: FloodConfiguration
    public var baselineElapsed = 0.0
    public var floodElapsed = 0.0
    public var lingered = 0.0
    public var invitesSent = 0
    public var bytesOut = 0
    public var sendErrors = 0
    /// Datagrams that came back to the flood's address.
    public var answers = 0
    public var bytesIn = 0
    /// Answers by status code (0: not a response).
    public var statuses: [Int: Int] = [:]
    /// Seconds from the end of the flood to the last answer (negative: before it ended).
    public var lastAnswerAfterFlood: Double?
    /// Datagrams dropped at a full receive buffer anywhere on the machine during the run.
    public var udpReceiveBufferErrors: Int?
    public var memoryBefore: Int?
    public var memoryPeak: Int?
    public var memoryAfter: Int?
    public var samples: [ProbeSample] = []

    public init(configuration: FloodConfiguration) {
        self.configuration = configuration
    }

    /// Answers per INVITE sent.
    public var amplification: Double { invitesSent == 0 ? 0 : Double(answers) / Double(invitesSent) }

    /// The server's bytes out per byte in (what came back over what we sent).
    public var byteAmplification: Double { bytesOut == 0 ? 0 : Double(bytesIn) / Double(bytesOut) }

    public func samples(in phase: FloodPhase) -> [ProbeSample] { samples.filter { $0.phase == phase } }

    public var report: String {
        let c = configuration
        let achieved = floodElapsed > 0 ? Double(invitesSent) / floodElapsed : 0
        let statusText = statuses.sorted { $0.key < $1.key }
            .map { "\($0.key == 0 ? "other" : String($0.key)) ×\($0.value)" }.joined(separator: ", ")
        let last = lastAnswerAfterFlood.map { String(format: "the last %.1f s after the flood ended", $0) } ?? "none"
        var lines = [
            String(format: "### sip-flood: unauthenticated INVITEs over UDP, %.0f/s for %.0f s", c.rate, c.duration),
            "",
            "| measure | value |",
            "|---|---|",
            "| target | \(c.target), flood from \(c.floodSource.host) to sip:\(c.callee)@\(c.domain), probe from \(c.probeSource.host) as \(c.user) |",
            "| INVITEs sent | \(invitesSent) in \(Self.fixed(floodElapsed, 1)) s (\(Self.fixed(achieved, 0))/s achieved, " +
                "\(Self.fixed(c.rate, 0))/s offered), \(sendErrors) send errors, \(ByteCount.text(bytesOut)) |",
            "| answers received | \(answers) (\(statusText.isEmpty ? "none" : statusText)), \(ByteCount.text(bytesIn)); \(last) |",
            String(format: "| amplification | %.3f answers per INVITE; %.2f bytes out of the server per byte in |",
                   amplification, byteAmplification),
            "| UDP receive-buffer drops on the machine | \(udpReceiveBufferErrors.map(String.init) ?? "unknown") |",
            "| target RSS | \(memoryText) |",
            "",
            "| legitimate REGISTERs | phase length | exchanges | 200 OK | failed | timeouts | with credentials: median / p90 / p99 / max ms | whole exchange with the 401: median / p90 / p99 / max ms |",
            "|---|---:|---:|---:|---:|---:|---|---|",
        ]
        let lengths: [FloodPhase: Double] = [.baseline: baselineElapsed, .flood: floodElapsed, .after: lingered]
        for phase in FloodPhase.allCases {
            let phaseSamples = samples(in: phase)
            let ok = phaseSamples.filter { $0.outcome == .registered }
            let timeouts = phaseSamples.filter { $0.outcome == .timedOut }.count
            let failed = phaseSamples.count - ok.count - timeouts
            let credentialed = LatencyStatistics(ok.compactMap(\.withCredentials))
            let whole = LatencyStatistics(ok.compactMap(\.wholeExchange))
            lines.append("| \(Self.name(phase)) | \(Self.fixed(lengths[phase] ?? 0, 1)) s | \(phaseSamples.count) | \(ok.count) | " +
                         "\(failed) | \(timeouts) | \(credentialed.millisecondsText) | \(whole.millisecondsText) |")
        }
        let failures = samples.compactMap { sample -> Int? in
            if case .failed(let status) = sample.outcome { return status }
            return nil
        }
        if !failures.isEmpty {
            lines.append("")
            lines.append("Failed REGISTERs by final status: " + Dictionary(grouping: failures, by: { $0 })
                .sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value.count)" }.joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }

    var memoryText: String {
        guard let before = memoryBefore, let peak = memoryPeak, let after = memoryAfter else { return "not measured (no --pid)" }
        return "before \(ByteCount.text(before)), peak \(ByteCount.text(peak)), after \(ByteCount.text(after))"
    }

    static func fixed(_ value: Double, _ decimals: Int) -> String {
        String(format: "%.\(decimals)f", value)
    }

    static func name(_ phase: FloodPhase) -> String {
        switch phase {
        case .baseline: return "baseline, before the flood"
        case .flood: return "during the flood"
        case .after: return "after the flood"
        }
    }
}
