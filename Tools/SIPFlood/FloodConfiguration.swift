import SIPAttackSupport

/// Everything a flood run needs; the `sip-flood` flags map onto it.
public struct FloodConfiguration: Sendable {
    public var target: LoopbackEndpoint
    /// Where the INVITEs come from.
    public var floodSource: LoopbackEndpoint
    /// Where the legitimate client registers from.
    public var probeSource: LoopbackEndpoint
    /// INVITEs per second.
    public var rate: Double
    /// Seconds of flooding.
    public var duration: Double
    /// Seconds of probing before the flood starts.
    public var baseline: Double
    /// The legitimate client's account, and the user the INVITEs call.
    public var user: String
    public var password: String
    public var callee: String
    /// The domain in the Request-URIs, From and To (the server's realm).
    public var domain: String
    /// Seconds between the starts of two REGISTER exchanges.
    public var probeInterval: Double
    /// Seconds each step of an exchange may wait for its final response.
    public var probeTimeout: Double
    /// After the flood: stop once no answer came for this many seconds…
    public var lingerIdle: Double
    /// …or after this many seconds at most (a server that retransmits its
    /// 407s keeps answering for 32 s).
    public var lingerMax: Double
    public var pid: Int32?

    public init(target: LoopbackEndpoint, floodSource: LoopbackEndpoint? = nil, probeSource: LoopbackEndpoint? = nil,
                rate: Double = 20000, duration: Double = 10, baseline: Double = 3, user: String = "alice",
                password: String, callee: String? = nil, domain: String = "localhost", probeInterval: Double = 0.1,
                probeTimeout: Double = 2, lingerIdle: Double = 5, lingerMax: Double = 40, pid: Int32? = nil) throws {
        self.target = target
        self.floodSource = try floodSource ?? .address("127.0.0.3")
        self.probeSource = try probeSource ?? .address("127.0.0.1")
        self.rate = rate
        self.duration = duration
        self.baseline = baseline
        self.user = user
        self.password = password
        self.callee = callee ?? user
        self.domain = domain
        self.probeInterval = probeInterval
        self.probeTimeout = probeTimeout
        self.lingerIdle = lingerIdle
        self.lingerMax = lingerMax
        self.pid = pid
    }
}
