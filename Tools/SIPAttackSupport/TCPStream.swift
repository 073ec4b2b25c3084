import Glibc

/// A TCP connection from a loopback source to the target.
public final class TCPStream: ByteStream {
    public let fd: Int32

    /// `timeout` bounds the connect and every later write.
    public init(source: LoopbackEndpoint, target: LoopbackEndpoint, timeout: Double = 2) throws {
        let fd = try SocketCalls.open(type: SOCK_STREAM, source: source)
        do {
            try SocketCalls.connect(fd, to: target, timeout: timeout)
        } catch {
            close(fd)
            throw error
        }
        SocketCalls.setTimeouts(fd, receive: timeout, send: timeout)
        self.fd = fd
    }

    deinit { close(fd) }

    public func write(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 && errno == EINTR { continue }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    public func drain(timeout: Double) -> StreamDrain {
        var result = StreamDrain()
        var wait = timeout
        var buffer = [UInt8](repeating: 0, count: 65536)
        while SocketCalls.wait(fd, for: Int16(POLLIN), timeout: wait) {
            let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR) {
                result.closed = true
                break
            }
            if count > 0 { result.bytes += buffer[0..<count] }
            wait = 0
        }
        return result
    }
}
