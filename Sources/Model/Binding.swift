import Foundation

/// One registered contact of an address-of-record (RFC 3261 §10.3).
public struct Binding: Sendable, Hashable, Codable {
    /// The AOR this binding belongs to: the user part, lower-cased.
    /// Every configured domain is an alias of the others, so `alice@localhost`
    /// and `alice@127.0.0.1` are one AOR, `alice`.
    public var aor: String
    /// The Contact URI as the device sent it, without header parameters.
    public var contact: String
    /// `+sip.instance` (RFC 5626), with the angle brackets, e.g. `<urn:uuid:...>`.
    public var instanceID: String?
    /// `reg-id` (RFC 5626).
    public var regID: Int?
    public var callID: String
    public var cseq: UInt32
    /// q-value in thousandths (0...1000); nil when the contact sent none.
    public var q: Int?
    public var expiresAt: Date
    /// Path header values (RFC 3327), in the order they appeared in the REGISTER.
    public var path: [String]
    public var source: BindingSource
    public var userAgent: String?
    /// When this binding was first created.
    public var registeredAt: Date
    /// When it was last added or refreshed.
    public var updatedAt: Date

    public init(
        aor: String, contact: String, instanceID: String? = nil, regID: Int? = nil,
        callID: String, cseq: UInt32, q: Int? = nil, expiresAt: Date, path: [String] = [],
        source: BindingSource, userAgent: String? = nil, registeredAt: Date, updatedAt: Date
    ) {
        self.aor = aor
        self.contact = contact
        self.instanceID = instanceID
        self.regID = regID
        self.callID = callID
        self.cseq = cseq
        self.q = q
        self.expiresAt = expiresAt
        self.path = path
        self.source = source
        self.userAgent = userAgent
        self.registeredAt = registeredAt
        self.updatedAt = updatedAt
    }

    /// Which binding of the AOR this is: a device's instance id when it sent one,
    /// otherwise its Contact URI.
    public var key: BindingKey { BindingKey(instanceID: instanceID, regID: regID, contact: contact) }

    /// Seconds left before the binding expires, never negative.
    public func remainingSeconds(at now: Date) -> Int {
        max(0, Int(expiresAt.timeIntervalSince(now).rounded(.up)))
    }
}
