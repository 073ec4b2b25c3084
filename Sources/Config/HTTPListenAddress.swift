/// `HOST:PORT` for the HTTP server; IPv6 in brackets (`[::1]:8080`).
public struct HTTPListenAddress: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT` with the same host and port rules as SIP listen addresses.
    public init?(_ text: String) {
        guard let address = ListenAddress("tcp:" + text) else { return nil }
        host = address.host
        port = address.port
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
