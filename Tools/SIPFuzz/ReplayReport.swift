import SIPAttackSupport

/// The result of a replay: each file's answers, and whether the server still
/// answers an OPTIONS probe afterwards.
public struct ReplayReport: Sendable {
    public var entries: [ReplayEntry] = []
    /// Latency of the probe sent after the last file; nil if unanswered.
    public var probeLatency: Double?
    /// Nil without `--pid`.
    public var processAlive: Bool?

    public init() {}

    public var serverAlive: Bool { probeLatency != nil && processAlive != false }

    public var report: String {
        var lines: [String] = []
        for entry in entries {
            var text = "\(entry.name): \(entry.transport.rawValue), \(entry.bytes) bytes"
            if entry.sendFailed { text += ", not sent (no connection, or the write failed)" }
            if !entry.responses.isEmpty { text += ", answers: " + entry.responses.joined(separator: " | ") }
            if entry.closedByServer { text += ", connection closed by the server" }
            lines.append(text)
        }
        if let probeLatency {
            lines.append("server: answers OPTIONS (\(LatencyStatistics.milliseconds(probeLatency)) ms)")
        } else {
            lines.append("server: does NOT answer OPTIONS within 2 s")
        }
        if let processAlive { lines.append("process: \(processAlive ? "running" : "EXITED")") }
        return lines.joined(separator: "\n")
    }
}
