/// The operator's registration limits, applied by `RegistrarRules`.
public struct RegistrarPolicy: Sendable, Equatable {
    /// RFC 3261 §10.3 step 7: a non-zero expiration below this is refused with
    /// 423 Interval Too Brief and a Min-Expires header carrying this value.
    public var minExpires: Int
    /// RFC 3261 §10.3 step 7: the registrar MAY shorten the requested
    /// expiration; longer requests are clamped to this value and the 200 OK
    /// tells the device the interval actually granted.
    public var maxExpires: Int
    /// RFC 3261 §10.3 step 7: the interval a registrar chooses when the contact
    /// has no `expires` parameter and the request has no Expires header.
    public var defaultExpires: Int
    /// Most bindings one AOR may hold. When a request would exceed it, the
    /// least recently updated bindings the request did not touch are evicted.
    public var maxBindingsPerAOR: Int

    public init(minExpires: Int = 60, maxExpires: Int = 3600, defaultExpires: Int = 3600, maxBindingsPerAOR: Int = 10) {
        self.minExpires = minExpires
        self.maxExpires = maxExpires
        self.defaultExpires = defaultExpires
        self.maxBindingsPerAOR = maxBindingsPerAOR
    }
}
