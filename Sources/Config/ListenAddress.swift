/// One socket the SIP agent listens on: `transport:host:port`.
///
/// Accepted forms: `udp:127.0.0.1:5060`, `tcp:0.0.0.0:5060`, `tls:sip.example.com:5061`,
/// `tcp:[::1]:5060`. An IPv6 host must be in brackets; `host` holds it without them
/// (`::1`), and `uriHost` puts them back for URIs and Via headers.
public struct ListenAddress: Sendable, Hashable, CustomStringConvertible {
    public var transport: ListenTransport
    /// Host name or IP address, IPv6 without brackets.
    public var host: String
    /// 1...65535.
    public var port: Int

    public init(transport: ListenTransport, host: String, port: Int) {
        self.transport = transport
        self.host = host
        self.port = port
    }

    /// Parses `transport:host:port`; nil when the text is not a valid listen address.
    /// The transport is matched case-insensitively.
    public init?(_ text: String) {
        guard let firstColon = text.firstIndex(of: ":") else { return nil }
        guard let transport = ListenTransport(rawValue: text[..<firstColon].lowercased()) else { return nil }
        let rest = text[text.index(after: firstColon)...]
        guard let lastColon = rest.lastIndex(of: ":") else { return nil }
        let hostPart = String(rest[..<lastColon])
        let portPart = rest[rest.index(after: lastColon)...]
        guard !portPart.isEmpty, portPart.allSatisfy(\.isASCII), portPart.allSatisfy(\.isNumber),
              portPart.count <= 5, let port = Int(portPart), (1...65535).contains(port)
        else { return nil }
        guard let host = HostSyntax.listenHost(hostPart) else { return nil }
        self.init(transport: transport, host: host, port: port)
    }

    /// The host as it goes into a SIP URI or a Via header: IPv6 in brackets.
    public var uriHost: String { host.contains(":") ? "[\(host)]" : host }

    /// `transport:host:port`, the form it was written in.
    public var description: String { "\(transport.rawValue):\(uriHost):\(port)" }
}
