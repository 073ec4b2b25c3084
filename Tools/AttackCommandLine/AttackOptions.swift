import ArgumentParser
import SIPAttackSupport

/// The options `sip-flood` and `sip-fuzz` share: the server under attack, how
/// hard and how long to attack it, and where the traffic and the probe come
/// from. Every address must be on loopback.
public struct AttackOptions<Tool: AttackToolProfile>: ParsableArguments {
    @Option(help: "The server, HOST:PORT (loopback only).")
    public var target: String = "127.0.0.1:5060"

    @Option(help: ArgumentHelp("How many \(Tool.defaults.traffic) to send per second, at most."))
    public var rate: Double = Tool.defaults.rate

    @Option(help: ArgumentHelp("Seconds of sending \(Tool.defaults.traffic)."))
    public var duration: Double = Tool.defaults.duration

    @Option(help: ArgumentHelp("Loopback address the \(Tool.defaults.traffic) come from."))
    public var from: String = Tool.defaults.source

    @Option(name: .customLong("probe-from"), help: ArgumentHelp("Loopback address of \(Tool.defaults.prober)."))
    public var probeFrom: String = "127.0.0.1"

    @Option(name: .customLong("probe-interval"), help: "Seconds between the starts of two probes.")
    public var probeInterval: Double = Tool.defaults.probeInterval

    @Option(name: .customLong("probe-timeout"), help: ArgumentHelp("Seconds within which a probe must be answered."))
    public var probeTimeout: Double = 2

    public init() {}

    /// `--target`, checked to be on loopback.
    public func targetEndpoint() throws -> LoopbackEndpoint {
        try LoopbackEndpoint(parsing: target)
    }

    /// `--from`, checked to be on loopback.
    public func source() throws -> LoopbackEndpoint {
        try LoopbackEndpoint.address(from)
    }

    /// `--probe-from`, checked to be on loopback.
    public func probeSource() throws -> LoopbackEndpoint {
        try LoopbackEndpoint.address(probeFrom)
    }
}
