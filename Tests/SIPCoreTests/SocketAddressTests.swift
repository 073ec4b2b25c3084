import Glibc
@testable import SIPCore
import Testing

/// A request's source is read from the socket address as numbers, never names.
@Suite struct SocketAddressTests {
    @Test func ipv4HostAndPortAreNumeric() {
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(5062).bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                SocketAddress.hostAndPort($0, length: socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        #expect(result?.0 == "127.0.0.1")
        #expect(result?.1 == 5062)
    }

    @Test func ipv6HostIsNotBracketed() {
        var addr = sockaddr_in6()
        addr.sin6_family = sa_family_t(AF_INET6)
        addr.sin6_port = in_port_t(5060).bigEndian
        addr.sin6_addr = in6addr_loopback
        let result = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                SocketAddress.hostAndPort($0, length: socklen_t(MemoryLayout<sockaddr_in6>.size))
            }
        }
        #expect(result?.0 == "::1")
        #expect(result?.1 == 5060)
    }
}
