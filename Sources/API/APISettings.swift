import Model
import Registrar

/// What the HTTP side needs from the configuration.
public struct APISettings: Sendable {
    /// Realm of the stored HA1s (the SIP realm): reporter credentials are
    /// checked against the same HA1 as SIP.
    public var realm: String
    /// Digest algorithms offered to reporters that answer an HTTP challenge.
    public var algorithms: [DigestAlgorithm]
    /// Bearer token of the admin API; nil switches the admin API off.
    public var adminToken: String?
    /// Largest request body accepted, in bytes.
    public var maxBodySize: Int
    /// Failed reporter logins for one user from one address allowed per
    /// minute; the next attempt of that pair gets 429 for a minute.
    public var failedLoginsPerMinute: Int
    /// Wrong admin bearer tokens from one address allowed per minute; the
    /// next admin request from that address gets 429 for a minute.
    public var adminFailuresPerMinute: Int
    /// Nonce signing secret for HTTP Digest challenges.
    public var nonceSecret: [UInt8]
    /// Lifetime in seconds of the nonces of HTTP Digest challenges (`auth.nonce_lifetime`).
    public var nonceLifetime: Int
    /// Requests one Digest nonce may authenticate (`auth.nonce_max_uses`).
    public var nonceMaxUses: Int
    /// Which provider reaches each app id: a tuple the reporter or the
    /// admin API writes must be reachable, or its device could never be woken.
    /// Read from `pushRoutingTable`, which a reload may change.
    public var pushRouting: PushRouting {
        get { pushRoutingTable.current }
        set { pushRoutingTable = PushRoutingTable(newValue) }
    }
    public var pushRoutingTable: PushRoutingTable

    public init(realm: String, algorithms: [DigestAlgorithm] = [.md5, .sha256], adminToken: String?,
                maxBodySize: Int = 16 * 1024, failedLoginsPerMinute: Int = 10, adminFailuresPerMinute: Int = 5,
                nonceSecret: [UInt8], nonceLifetime: Int = 300, nonceMaxUses: Int = 100,
                pushRouting: PushRouting = PushRouting()) {
        self.realm = realm
        self.algorithms = algorithms
        self.adminToken = adminToken
        self.maxBodySize = maxBodySize
        self.failedLoginsPerMinute = failedLoginsPerMinute
        self.adminFailuresPerMinute = adminFailuresPerMinute
        self.nonceSecret = nonceSecret
        self.nonceLifetime = nonceLifetime
        self.nonceMaxUses = nonceMaxUses
        pushRoutingTable = PushRoutingTable(pushRouting)
    }
}
