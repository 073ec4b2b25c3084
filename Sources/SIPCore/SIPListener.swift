import Model

/// One address the SIP agent listens on.
public struct SIPListener: Sendable, Equatable {
    public var transport: SIPTransport
    public var host: String
    public var port: Int
    /// For TLS: a directory holding Sofia's `agent.pem` (key and certificate).
    public var certificateDirectory: String?

    public init(transport: SIPTransport, host: String, port: Int, certificateDirectory: String? = nil) {
        self.transport = transport
        self.host = host
        self.port = port
        self.certificateDirectory = certificateDirectory
    }

    /// The Sofia transport URL, e.g. `sip:127.0.0.1:5060;transport=udp`.
    public var sofiaURL: String {
        let h = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        switch transport {
        case .udp: return "sip:\(h):\(port);transport=udp"
        case .tcp: return "sip:\(h):\(port);transport=tcp"
        case .tls: return "sips:\(h):\(port);transport=tls"
        }
    }
}
