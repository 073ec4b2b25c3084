/// `[sip]`: where the agent listens and which domains it serves.
public struct SIPSection: Sendable, Hashable {
    /// Sockets to listen on; at least one, no duplicates. `tls` entries need `[tls]`.
    public var listen: [ListenAddress]
    /// Domains this server is the registrar for, lower-cased; at least one. They are
    /// aliases of one user namespace: `alice@localhost` is `alice@127.0.0.1`.
    /// IPv6 domains are kept in URI form, `[::1]`.
    public var domains: [String]
    /// Largest SIP message accepted, in bytes (1024...1048576).
    public var maxMessageSize: Int
    /// Host for Via / Record-Route when listening on a wildcard address; "" = the
    /// listen address. An IPv6 address is kept without brackets.
    public var publicHost: String
    /// Edge proxies in front of the phones (Kamailio, an SBC): REGISTERs
    /// from them may carry Path (RFC 3327), and they are exempt from the
    /// per-source request limit. Their requests are still authenticated.
    public var edgeProxies: [TrustedPeer]
    /// Requests per second one untrusted address may send without valid
    /// credentials before the rest are dropped (0 = no limit).
    public var maxUnauthenticatedPerSource: Int
    /// Stateless answers (challenges, refusals) to untrusted sources per
    /// second, all sources together, before the rest are dropped (0 = no limit).
    public var maxStatelessPerSecond: Int

    public init(
        listen: [ListenAddress] = [
            ListenAddress(transport: .udp, host: "127.0.0.1", port: 5060),
            ListenAddress(transport: .tcp, host: "127.0.0.1", port: 5060),
        ],
        domains: [String] = ["localhost", "127.0.0.1"],
        maxMessageSize: Int = 65536,
        publicHost: String = "",
        edgeProxies: [TrustedPeer] = [],
        maxUnauthenticatedPerSource: Int = 100,
        maxStatelessPerSecond: Int = 5000
    ) {
        self.listen = listen
        self.domains = domains
        self.maxMessageSize = maxMessageSize
        self.publicHost = publicHost
        self.edgeProxies = edgeProxies
        self.maxUnauthenticatedPerSource = maxUnauthenticatedPerSource
        self.maxStatelessPerSecond = maxStatelessPerSecond
    }

    /// Whether `address` is one of `edgeProxies`.
    public func isEdgeProxy(_ address: String) -> Bool {
        edgeProxies.contains { $0.contains(address) }
    }
}
