import Glibc

/// Reading the numeric host and port out of a socket address.
enum SocketAddress {
    /// Numeric host and port of a socket address.
    static func hostAndPort(_ addr: UnsafePointer<sockaddr>, length: socklen_t) -> (String, Int)? {
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        var serv = [CChar](repeating: 0, count: Int(NI_MAXSERV))
        let rc = getnameinfo(addr, length, &host, socklen_t(host.count), &serv, socklen_t(serv.count),
                             NI_NUMERICHOST | NI_NUMERICSERV)
        guard rc == 0 else { return nil }
        return (String(cString: host), Int(String(cString: serv)) ?? 0)
    }
}
