import Glibc

/// Finds out why an address cannot be listened on. Sofia reports only that
/// binding failed (its errno is often overwritten by then), so after a
/// failure the address is bound once more with a plain socket to get the
/// real reason, such as "Address already in use".
enum ListenProbe {
    static func bindError(_ listener: SIPListener) -> String? {
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICHOST | AI_PASSIVE
        hints.ai_socktype = Int32(listener.transport == .udp ? SOCK_DGRAM.rawValue : SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        let host = listener.host.trimmingCharacters(in: ["[", "]"])
        guard getaddrinfo(host, String(listener.port), &hints, &result) == 0, let info = result else {
            return "'\(listener.host)' is not a numeric IP address"
        }
        defer { freeaddrinfo(result) }
        let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, 0)
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        defer { close(fd) }
        var one: Int32 = 1
        if listener.transport != .udp {
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        }
        guard bind(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else {
            return String(cString: strerror(errno))
        }
        return nil
    }
}

import Foundation
