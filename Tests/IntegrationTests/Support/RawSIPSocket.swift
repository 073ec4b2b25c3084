import Foundation
import Glibc

/// A plain socket for sending bytes that no SIP stack would send:
/// malformed and oversize messages, garbage, CRLF keep-alives.
final class RawSIPSocket {
    let fd: Int32
    let isStream: Bool

    /// `from` is the local address to send from (any 127.x.y.z on loopback),
    /// `host` the loopback address the server listens on.
    init(udpTo port: Int, from address: String = "127.0.0.1", host: String = "127.0.0.1") throws {
        fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        isStream = false
        try bindTo(address)
        try connectTo(port, host: host)
    }

    init(tcpTo port: Int, from address: String = "127.0.0.1") throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        isStream = true
        try bindTo(address)
        try connectTo(port)
    }

    /// The local address requests carry in their Via.
    var localAddress: String {
        var addr = sockaddr_in()
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        return String(cString: inet_ntoa(addr.sin_addr))
    }

    private func bindTo(_ address: String) throws {
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = 0
        addr.sin_addr.s_addr = inet_addr(address)
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard rc == 0 else { throw NSError(domain: "RawSIPSocket", code: Int(errno)) }
    }

    /// A listening TCP socket that holds `port` (to make it busy).
    init(tcpListenerOn port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        isStream = true
        let rc = Self.withLoopback(port) { bind(fd, $0, $1) }
        guard rc == 0, listen(fd, 1) == 0 else { throw NSError(domain: "RawSIPSocket", code: Int(errno)) }
    }

    deinit { close(fd) }

    /// Calls `body` with `host`:`port` as a socket address and its length.
    private static func withLoopback(_ port: Int, host: String = "127.0.0.1",
                                     _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr(host)
        return withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    private func connectTo(_ port: Int, host: String = "127.0.0.1") throws {
        let rc = Self.withLoopback(port, host: host) { Glibc.connect(fd, $0, $1) }
        guard rc == 0 else { throw NSError(domain: "RawSIPSocket", code: Int(errno)) }
    }

    /// The local port, for building Via headers that point back here.
    var localPort: Int {
        var addr = sockaddr_in()
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        return Int(UInt16(bigEndian: addr.sin_port))
    }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Reads what arrives within `timeout` seconds. Returns nil on timeout,
    /// "" when a stream connection was closed by the server.
    func receive(timeout: Double = 2) -> String? {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pfd, 1, Int32(timeout * 1000)) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = recv(fd, &buffer, buffer.count, 0)
        if n <= 0 { return "" }
        return String(decoding: buffer[0..<n], as: UTF8.self)
    }

    /// Reads what arrives in up to `reads` waits of `timeout` seconds each,
    /// stopping early when the server closes the stream connection.
    func receiveUntilClosed(reads: Int, timeout: Double = 1) -> (received: String, closed: Bool) {
        var received = ""
        for _ in 0..<reads {
            guard let chunk = receive(timeout: timeout) else { continue }
            if chunk.isEmpty { return (received, true) }
            received += chunk
        }
        return (received, false)
    }

    /// A minimal request with a Via pointing back at this socket.
    func request(method: String = "OPTIONS", uri: String = "sip:localhost", extra: String = "", body: String = "") -> String {
        let transport = isStream ? "TCP" : "UDP"
        return "\(method) \(uri) SIP/2.0\r\n" +
            "Via: SIP/2.0/\(transport) \(localAddress):\(localPort);branch=z9hG4bK\(UUID().uuidString.prefix(12));rport\r\n" +
            "From: <sip:probe@localhost>;tag=raw1\r\nTo: <sip:probe@localhost>\r\n" +
            "Call-ID: \(UUID().uuidString)\r\nCSeq: 1 \(method)\r\nMax-Forwards: 70\r\n" +
            extra + "Content-Length: \(body.utf8.count)\r\n\r\n" + body
    }
}
