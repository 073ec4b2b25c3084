import Glibc

/// The few socket calls the tools repeat: a socket bound to a loopback source,
/// connected (with a deadline for streams), timeouts, polling.
enum SocketCalls {
    static func open(type: __socket_type, source: LoopbackEndpoint) throws -> Int32 {
        let fd = socket(AF_INET, Int32(type.rawValue), 0)
        guard fd >= 0 else { throw AttackToolError.socket(call: "socket", errno: errno) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let rc = source.withSockaddr { bind(fd, $0, $1) }
        guard rc == 0 else {
            let code = errno
            close(fd)
            throw AttackToolError.socket(call: "bind \(source)", errno: code)
        }
        return fd
    }

    /// Connects a fresh socket, waiting at most `timeout` seconds (a stalled
    /// server with a full accept queue would otherwise hold us for minutes).
    static func connect(_ fd: Int32, to target: LoopbackEndpoint, timeout: Double) throws {
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        defer { _ = fcntl(fd, F_SETFL, flags) }
        let rc = target.withSockaddr { Glibc.connect(fd, $0, $1) }
        if rc == 0 { return }
        guard errno == EINPROGRESS else { throw AttackToolError.socket(call: "connect \(target)", errno: errno) }
        guard wait(fd, for: Int16(POLLOUT), timeout: timeout) else {
            throw AttackToolError.socket(call: "connect \(target)", errno: ETIMEDOUT)
        }
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
        guard error == 0 else { throw AttackToolError.socket(call: "connect \(target)", errno: error) }
    }

    /// SO_RCVTIMEO and SO_SNDTIMEO.
    static func setTimeouts(_ fd: Int32, receive: Double, send: Double) {
        for (option, seconds) in [(SO_RCVTIMEO, receive), (SO_SNDTIMEO, send)] {
            var value = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - Double(Int(seconds))) * 1e6))
            setsockopt(fd, SOL_SOCKET, option, &value, socklen_t(MemoryLayout<timeval>.size))
        }
    }

    /// Waits until `events` are ready, at most `timeout` seconds (0 = just look).
    static func wait(_ fd: Int32, for events: Int16, timeout: Double) -> Bool {
        var descriptor = pollfd(fd: fd, events: events, revents: 0)
        let milliseconds = Int32(max(0, (timeout * 1000).rounded(.up)))
        while true {
            let rc = poll(&descriptor, 1, milliseconds)
            if rc < 0 && errno == EINTR { continue }
            return rc > 0
        }
    }

    static func localPort(_ fd: Int32) -> Int {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
