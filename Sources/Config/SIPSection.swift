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

    public init(
        listen: [ListenAddress] = [
            ListenAddress(transport: .udp, host: "127.0.0.1", port: 5060),
            ListenAddress(transport: .tcp, host: "127.0.0.1", port: 5060),
        ],
        domains: [String] = ["localhost", "127.0.0.1"],
        maxMessageSize: Int = 65536,
        publicHost: String = ""
    ) {
        self.listen = listen
        self.domains = domains
        self.maxMessageSize = maxMessageSize
        self.publicHost = publicHost
    }
}
