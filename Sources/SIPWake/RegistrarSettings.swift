import Config
import Foundation
import Registrar

/// What the registrar needs from the configuration, resolved once at start.
struct RegistrarSettings: Sendable {
    var domains: Set<String>
    var policy: RegistrarPolicy
    var authEnabled: Bool
    var realm: String
    var algorithms: [DigestAlgorithm]
    var nonceLifetime: Int
    var trustedPeers: [TrustedPeer]
    var nonceSecret: [UInt8]
    /// The first configured domain, for URIs this server writes itself.
    var primaryDomain: String
    var keepaliveInterval: Int
    var nonceMaxUses: Int
    var failureLimits: AuthFailureLimiter.Limits
    /// Edge proxies: Path is honoured from them only, and they are exempt
    /// from the per-source request limit.
    var edgeProxies: [TrustedPeer]
    var maxUnauthenticatedPerSource: Int
    var maxStatelessPerSecond: Int
    /// RFC 8599 binding-refresh pushes: seconds before expiry, and retries.
    var pnRefreshBefore: Int
    var pnRefreshRetries: Int
    /// Bounds of the answers kept for retransmitted REGISTERs
    /// (`RegisterAnswers`): 32 s of registrations at 10 000 a second, about
    /// 250 bytes each.
    var keptAnswersMaxEntries = 320_000
    var keptAnswersMaxBytes = 128 << 20

    init(config: SipwakeConfig, nonceSecret: [UInt8]) {
        domains = Set(config.sip.domains.map { $0.lowercased() })
        policy = RegistrarPolicy(
            minExpires: config.registrar.minExpires, maxExpires: config.registrar.maxExpires,
            defaultExpires: config.registrar.defaultExpires,
            maxBindingsPerAOR: config.registrar.maxBindingsPerAOR)
        authEnabled = config.auth.enabled
        realm = config.auth.effectiveRealm
        algorithms = config.auth.algorithms.compactMap { DigestAlgorithm(rawValue: $0) }
        nonceLifetime = config.auth.nonceLifetime
        trustedPeers = config.auth.trustedPeers
        self.nonceSecret = nonceSecret
        primaryDomain = config.sip.domains.first ?? "localhost"
        keepaliveInterval = config.registrar.keepaliveInterval
        nonceMaxUses = config.auth.nonceMaxUses
        failureLimits = AuthFailureLimiter.Limits(
            perSource: config.auth.maxFailuresPerSource, perUser: config.auth.maxFailuresPerUser,
            window: TimeInterval(config.auth.failureWindow), blockTime: TimeInterval(config.auth.blockTime))
        edgeProxies = config.sip.edgeProxies
        maxUnauthenticatedPerSource = config.sip.maxUnauthenticatedPerSource
        maxStatelessPerSecond = config.sip.maxStatelessPerSecond
        pnRefreshBefore = config.registrar.pnRefreshBefore
        pnRefreshRetries = config.registrar.pnRefreshRetries
    }

    func isEdgeProxy(_ address: String) -> Bool {
        edgeProxies.contains { $0.contains(address) }
    }

    func isTrusted(_ address: String) -> Bool {
        trustedPeers.contains { $0.contains(address) }
    }

    /// True when a host names this server's domain (case-insensitive).
    func serves(_ host: String) -> Bool {
        var h = host.lowercased()
        if h.hasPrefix("["), h.hasSuffix("]") { h = String(h.dropFirst().dropLast()) }
        return domains.contains(h) || domains.contains("[\(h)]")
    }
}
