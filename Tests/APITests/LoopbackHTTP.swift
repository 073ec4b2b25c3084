import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One HTTP/1.1 request over a socket bound to a chosen loopback source
/// address (127.0.0.2 is loopback too), to reach a test server from another
/// client address than the test client's 127.0.0.1.
enum LoopbackHTTP {
    struct Answer {
        var status: Int
        /// The response head, status line and headers, as received.
        var head: String
        var body: String

        /// The first header of that name (case-insensitive), or nil.
        func header(_ name: String) -> String? {
            for line in head.split(separator: "\r\n").dropFirst() {
                let parts = line.split(separator: ":", maxSplits: 1)
                if parts.count == 2, parts[0].lowercased() == name.lowercased() {
                    return parts[1].trimmingCharacters(in: .whitespaces)
                }
            }
            return nil
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func exchange(from source: String, port: Int, method: String, path: String,
                     headers: [(String, String)] = [], body: String = "") throws -> Answer {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        defer { close(fd) }
        func address(_ host: String, _ port: Int) -> sockaddr_in {
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET, host, &addr.sin_addr)
            return addr
        }
        var local = address(source, 0)
        var remote = address("127.0.0.1", port)
        let size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) } }
        guard bound == 0 else { throw Failure(description: "bind \(source): errno \(errno)") }
        let connected = withUnsafePointer(to: &remote) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, size) } }
        guard connected == 0 else { throw Failure(description: "connect: errno \(errno)") }
        var request = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        let bytes = Array(request.utf8)
        let sent = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        guard sent == bytes.count else { throw Failure(description: "send: \(sent) of \(bytes.count) bytes") }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        let text = String(decoding: received, as: UTF8.self)
        let split = text.range(of: "\r\n\r\n")
        let head = split.map { String(text[..<$0.lowerBound]) } ?? text
        let parts = (head.split(separator: "\r\n").first ?? "").split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { throw Failure(description: "no status line: \(head)") }
        return Answer(status: status, head: head, body: split.map { String(text[$0.upperBound...]) } ?? "")
    }
}
