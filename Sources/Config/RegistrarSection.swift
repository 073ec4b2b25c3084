/// `[registrar]`: binding lifetimes and limits (RFC 3261 §10.3).
public struct RegistrarSection: Sendable, Hashable {
    /// Below this a REGISTER gets 423 Interval Too Brief (1...86400 s).
    public var minExpires: Int
    /// Longer requested expiries are cut to this (>= minExpires, at most 604800 s).
    public var maxExpires: Int
    /// Used when a REGISTER asks for none (minExpires...maxExpires).
    public var defaultExpires: Int
    /// Bindings one address-of-record may hold (1...1000).
    public var maxBindingsPerAOR: Int
    /// Seconds between OPTIONS keep-alives to each binding (0 = none).
    public var keepaliveInterval: Int
    /// RFC 8599: seconds before a push-capable binding expires that its
    /// binding-refresh push is sent (advertised as `+sip.pnsreg`); 0 = none
    /// (0...86400).
    public var pnRefreshBefore: Int
    /// RFC 8599: refresh pushes sent again when the phone does not
    /// re-register after one (0...5).
    public var pnRefreshRetries: Int

    public init(minExpires: Int = 60, maxExpires: Int = 3600, defaultExpires: Int = 3600, maxBindingsPerAOR: Int = 10,
                keepaliveInterval: Int = 0, pnRefreshBefore: Int = 120, pnRefreshRetries: Int = 2) {
        self.minExpires = minExpires
        self.maxExpires = maxExpires
        self.defaultExpires = defaultExpires
        self.maxBindingsPerAOR = maxBindingsPerAOR
        self.keepaliveInterval = keepaliveInterval
        self.pnRefreshBefore = pnRefreshBefore
        self.pnRefreshRetries = pnRefreshRetries
    }
}
