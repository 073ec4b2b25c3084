import CLibSSL
import Glibc

/// A TLS connection to the target over a TCP connection from a loopback source.
public final class TLSStream: ByteStream {
    private let tcp: TCPStream
    private let ssl: OpaquePointer
    private let timeout: Double

    /// Connects and finishes the handshake within about `timeout` seconds.
    public init(context: TLSClientContext, source: LoopbackEndpoint, target: LoopbackEndpoint, timeout: Double = 2) throws {
        tcp = try TCPStream(source: source, target: target, timeout: timeout)
        guard let ssl = SSL_new(context.context) else { throw AttackToolError.tls("SSL_new failed") }
        SSL_set_fd(ssl, tcp.fd)
        guard SSL_connect(ssl) == 1 else {
            SSL_free(ssl)
            ERR_clear_error()
            throw AttackToolError.tls("handshake with \(target) failed")
        }
        // From now on nothing blocks: reads take what is there, writes wait
        // with poll, at most `timeout`.
        _ = fcntl(tcp.fd, F_SETFL, fcntl(tcp.fd, F_GETFL) | O_NONBLOCK)
        self.ssl = ssl
        self.timeout = timeout
    }

    deinit {
        SSL_free(ssl)
        ERR_clear_error()
    }

    public func write(_ bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty else { return true }
        var offset = 0
        let deadline = MonotonicClock.now() + timeout
        while offset < bytes.count {
            let chunk = min(bytes.count - offset, 16384)
            let written = bytes.withUnsafeBytes { SSL_write(ssl, $0.baseAddress! + offset, Int32(chunk)) }
            if written > 0 {
                offset += Int(written)
                continue
            }
            let error = SSL_get_error(ssl, written)
            ERR_clear_error()
            // Retried with the same bytes once the socket is ready, as OpenSSL requires.
            let events: Int16
            switch error {
            case SSL_ERROR_WANT_WRITE: events = Int16(POLLOUT)
            case SSL_ERROR_WANT_READ: events = Int16(POLLIN)
            default: return false
            }
            let left = deadline - MonotonicClock.now()
            guard left > 0, SocketCalls.wait(tcp.fd, for: events, timeout: left) else { return false }
        }
        return true
    }

    public func drain(timeout: Double) -> StreamDrain {
        var result = StreamDrain()
        let deadline = MonotonicClock.now() + timeout
        var waitForMore = timeout > 0
        var buffer = [UInt8](repeating: 0, count: 16384)
        while SSL_pending(ssl) > 0
            || SocketCalls.wait(tcp.fd, for: Int16(POLLIN), timeout: waitForMore ? max(0, deadline - MonotonicClock.now()) : 0) {
            let count = SSL_read(ssl, &buffer, Int32(buffer.count))
            if count > 0 {
                result.bytes += buffer[0..<Int(count)]
                waitForMore = false
                continue
            }
            let error = SSL_get_error(ssl, count)
            ERR_clear_error()
            if error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE {
                // A session ticket, or part of a record: more only within the timeout.
                if !waitForMore || MonotonicClock.now() >= deadline { break }
                continue
            }
            result.closed = true
            break
        }
        return result
    }
}
