import Glibc

/// A UDP socket bound to a loopback source and connected to the target, so
/// that only the target's answers arrive and an ICMP "port unreachable" shows
/// up as `.refused`.
///
/// Sendable: the only stored state is the descriptor, set once; the kernel
/// serialises concurrent send and receive calls on it (the flood sends on one
/// thread and counts answers on another).
public final class UDPSocket: Sendable {
    public let fd: Int32
    public let localPort: Int

    public init(source: LoopbackEndpoint, target: LoopbackEndpoint) throws {
        let fd = try SocketCalls.open(type: SOCK_DGRAM, source: source)
        let rc = target.withSockaddr { Glibc.connect(fd, $0, $1) }
        guard rc == 0 else {
            let code = errno
            close(fd)
            throw AttackToolError.socket(call: "connect \(target)", errno: code)
        }
        self.fd = fd
        localPort = SocketCalls.localPort(fd)
    }

    deinit { close(fd) }

    /// Asks for a receive buffer of `bytes` (beyond net.core.rmem_max when
    /// running as root), so that a burst of answers is not dropped by us.
    public func enlargeReceiveBuffer(_ bytes: Int32) {
        var value = bytes
        if setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &value, socklen_t(MemoryLayout<Int32>.size)) != 0 {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &value, socklen_t(MemoryLayout<Int32>.size))
        }
    }

    /// Sends one datagram; returns 0, or the errno of the failure.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Int32 {
        let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        return sent < 0 ? errno : 0
    }

    /// For counting at high rates: waits at most `timeout` seconds, then reads
    /// one datagram into `buffer`; its size, or nil on timeout or refusal.
    public func receive(into buffer: inout [UInt8], timeout: Double) -> Int? {
        var count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        if count < 0 && errno == EAGAIN {
            guard SocketCalls.wait(fd, for: Int16(POLLIN), timeout: timeout) else { return nil }
            count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        }
        return count >= 0 ? count : nil
    }

    /// Waits at most `timeout` seconds (0 = only what is already there).
    public func receive(timeout: Double) -> DatagramResult {
        guard SocketCalls.wait(fd, for: Int16(POLLIN), timeout: timeout) else { return .timeout }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        if count < 0 { return errno == ECONNREFUSED ? .refused : .timeout }
        return .datagram(Array(buffer[0..<count]))
    }
}
