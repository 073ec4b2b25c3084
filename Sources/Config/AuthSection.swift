/// `[auth]`: digest authentication of REGISTER and INVITE.
public struct AuthSection: Sendable, Hashable {
    /// false only for a lab; the server should log a warning at start-up.
    public var enabled: Bool
    /// The realm as configured; "" = `defaultRealm`. Use `effectiveRealm`.
    public var realm: String
    /// The realm used when `realm` is "": the loader sets it to the first of `[sip] domains`.
    public var defaultRealm: String
    /// Digest algorithms offered, in this order: a non-empty subset of "SHA-256", "MD5",
    /// spelled exactly so (the file may use any letter case). MD5 first by
    /// default: some phones answer only the first challenge and know only MD5.
    public var algorithms: [String]
    /// How long a nonce is accepted, in seconds (10...86400).
    public var nonceLifetime: Int
    /// Peers whose requests are not challenged.
    public var trustedPeers: [TrustedPeer]
    /// Nonce signing secret; "" = a random one at each start.
    public var secret: String
    /// Requests one nonce may authenticate (each with a higher nonce-count).
    public var nonceMaxUses: Int
    /// Failed digest attempts from one address, any user, within
    /// `failureWindow` before the address is blocked (0 = no such limit).
    public var maxFailuresPerSource: Int
    /// Failed digest attempts for one user from one address within
    /// `failureWindow` before that user is blocked from that address.
    public var maxFailuresPerUser: Int
    /// Seconds over which failures are counted.
    public var failureWindow: Int
    /// Seconds a block lasts.
    public var blockTime: Int

    /// The digest algorithms the loader accepts.
    public static let supportedAlgorithms = ["SHA-256", "MD5"]

    public init(
        enabled: Bool = true, realm: String = "", defaultRealm: String = "localhost",
        algorithms: [String] = ["MD5", "SHA-256"], nonceLifetime: Int = 300,
        trustedPeers: [TrustedPeer] = [], secret: String = "", nonceMaxUses: Int = 100,
        maxFailuresPerSource: Int = 20, maxFailuresPerUser: Int = 5, failureWindow: Int = 60, blockTime: Int = 300
    ) {
        self.enabled = enabled
        self.realm = realm
        self.defaultRealm = defaultRealm
        self.algorithms = algorithms
        self.nonceLifetime = nonceLifetime
        self.trustedPeers = trustedPeers
        self.secret = secret
        self.nonceMaxUses = nonceMaxUses
        self.maxFailuresPerSource = maxFailuresPerSource
        self.maxFailuresPerUser = maxFailuresPerUser
        self.failureWindow = failureWindow
        self.blockTime = blockTime
    }

    /// The realm to put in challenges: `realm`, or `defaultRealm` when that is "".
    public var effectiveRealm: String { realm.isEmpty ? defaultRealm : realm }

    /// Whether `address` is inside one of `trustedPeers`.
    public func isTrusted(_ address: String) -> Bool {
        trustedPeers.contains { $0.contains(address) }
    }
}
