import Glibc

/// An IPv4 address in 127.0.0.0/8 and a port. Every address the tools send to
/// or bind to goes through here, so nothing leaves the machine.
public struct LoopbackEndpoint: Sendable, Hashable, CustomStringConvertible {
    public let host: String
    public let port: Int

    /// `host` must be `localhost` or a dotted IPv4 address in 127.0.0.0/8;
    /// `port` 0 means "any" (for local addresses).
    public init(host: String, port: Int) throws {
        let name = host == "localhost" ? "127.0.0.1" : host
        var address = in_addr()
        guard inet_pton(AF_INET, name, &address) == 1 else { throw AttackToolError.notLoopback(host) }
        // s_addr is in network order: its first byte in memory is the first octet.
        guard UInt32(bigEndian: address.s_addr) >> 24 == 127 else { throw AttackToolError.notLoopback(host) }
        guard (0...65535).contains(port) else { throw AttackToolError.badEndpoint("\(host):\(port)") }
        self.host = name
        self.port = port
    }

    /// `HOST:PORT`, e.g. `127.0.0.1:5060` or `localhost:5060`.
    public init(parsing text: String) throws {
        guard let colon = text.lastIndex(of: ":"),
              let port = Int(text[text.index(after: colon)...]), (1...65535).contains(port) else {
            throw AttackToolError.badEndpoint(text)
        }
        try self.init(host: String(text[..<colon]), port: port)
    }

    /// A local address to bind to (`--from`), any port.
    public static func address(_ text: String) throws -> LoopbackEndpoint {
        try LoopbackEndpoint(host: text, port: 0)
    }

    /// The same host on another port (the TLS listener of a target).
    public func with(port: Int) throws -> LoopbackEndpoint {
        try LoopbackEndpoint(host: host, port: port)
    }

    public var description: String { "\(host):\(port)" }

    /// The address as the socket calls take it.
    func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        _ = inet_pton(AF_INET, host, &address.sin_addr)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }
}
