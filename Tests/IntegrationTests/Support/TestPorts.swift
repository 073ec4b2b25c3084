import Foundation
import Glibc

/// Free loopback ports for servers started by tests.
enum TestPorts {
    /// A port free for both UDP and TCP on 127.0.0.1, below Linux's
    /// ephemeral range (32768 and up), so an outgoing connection of another
    /// process (PostgreSQL, libcurl) cannot take it between this check and
    /// the server's bind.
    static func free() throws -> Int {
        for _ in 0..<200 {
            let port = Int.random(in: 20000...32000)
            if canBind(port, SOCK_DGRAM) && canBind(port, SOCK_STREAM) { return port }
        }
        throw NSError(domain: "TestPorts", code: 1)
    }

    private static func canBind(_ port: Int, _ type: __socket_type) -> Bool {
        let fd = socket(AF_INET, Int32(type.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
