import SIPAttackSupport

/// Everything a fuzzing run needs; the `sip-fuzz` flags map onto it.
public struct FuzzConfiguration: Sendable {
    public var target: LoopbackEndpoint
    /// The target's TLS listener, needed when `transports` has `.tls`.
    public var tlsTarget: LoopbackEndpoint?
    public var transports: [FuzzTransport]
    /// Seconds of fuzzing; the run then watches the target for one probe
    /// timeout more and stops.
    public var duration: Double
    /// Inputs per second, at most.
    public var rate: Double
    public var seed: UInt64
    public var pid: Int32?
    /// Where crashing and stalling inputs are saved, one folder per event.
    public var outputDirectory: String
    /// The fuzzer's own address (inputs come from here).
    public var source: LoopbackEndpoint
    /// The liveness probe's address, apart from the inputs'.
    public var probeSource: LoopbackEndpoint
    public var probeInterval: Double
    public var probeTimeout: Double
    /// How many inputs before the suspects are saved as well: 0 or more.
    public var keep: Int
    /// Stalls whose inputs are saved (every crash is).
    public var maximumSavedStalls: Int

    public init(target: LoopbackEndpoint, tlsTarget: LoopbackEndpoint? = nil, transports: [FuzzTransport] = [.udp, .tcp],
                duration: Double = 60, rate: Double = 200, seed: UInt64 = 1, pid: Int32? = nil,
                outputDirectory: String = "var/fuzz", source: LoopbackEndpoint? = nil, probeSource: LoopbackEndpoint? = nil,
                probeInterval: Double = 0.2, probeTimeout: Double = 2, keep: Int = 64, maximumSavedStalls: Int = 5) throws {
        try Self.check(keep: keep)
        self.target = target
        self.tlsTarget = tlsTarget
        self.transports = transports
        self.duration = duration
        self.rate = rate
        self.seed = seed
        self.pid = pid
        self.outputDirectory = outputDirectory
        self.source = try source ?? .address(SeedCorpus.sourceHost)
        self.probeSource = try probeSource ?? .address("127.0.0.1")
        self.probeInterval = probeInterval
        self.probeTimeout = probeTimeout
        self.keep = keep
        self.maximumSavedStalls = maximumSavedStalls
    }

    /// Refuses a negative `keep`: there is no such thing as fewer than no
    /// inputs before the suspects.
    static func check(keep: Int) throws {
        guard keep >= 0 else { throw FuzzError.badSetting("--keep must be 0 or more, not \(keep)") }
    }
}
