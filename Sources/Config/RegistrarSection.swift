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

    public init(minExpires: Int = 60, maxExpires: Int = 3600, defaultExpires: Int = 3600, maxBindingsPerAOR: Int = 10, keepaliveInterval: Int = 0) {
        self.minExpires = minExpires
        self.maxExpires = maxExpires
        self.defaultExpires = defaultExpires
        self.maxBindingsPerAOR = maxBindingsPerAOR
        self.keepaliveInterval = keepaliveInterval
    }
}
