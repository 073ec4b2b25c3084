import CSofiaSIP
import Glibc

/// Where a request really came from, read from the socket rather than from
/// what the request claims (Via, Contact): the NAT-mapped address and port,
/// the transport, and the connection for stream transports.
public struct RequestSource: Sendable, Hashable {
    /// `udp`, `tcp` or `tls`.
    public var transport: String
    public var host: String
    public var port: Int
    /// Identifies the live connection for stream transports (see `ConnectionTable`).
    public var connectionID: UInt64?

    public init(transport: String, host: String, port: Int, connectionID: UInt64? = nil) {
        self.transport = transport
        self.host = host
        self.port = port
        self.connectionID = connectionID
    }

    /// Numeric host and port of a socket address.
    static func address(_ addr: UnsafePointer<sockaddr>, length: socklen_t) -> (String, Int)? {
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        var serv = [CChar](repeating: 0, count: Int(NI_MAXSERV))
        let rc = getnameinfo(addr, length, &host, socklen_t(host.count), &serv, socklen_t(serv.count),
                             NI_NUMERICHOST | NI_NUMERICSERV)
        guard rc == 0 else { return nil }
        return (String(cString: host), Int(String(cString: serv)) ?? 0)
    }
}
