import CLibSSL
import Glibc

/// An OpenSSL client context that accepts any certificate (the target is our
/// own server on loopback, usually with a self-signed certificate).
///
/// Why the system's libssl, called directly: the fuzzer must decide the exact
/// bytes of every write and see at once when the server closes, on hundreds
/// of short connections. Spawning `openssl s_client` per connection costs a
/// process each and hides both behind its own buffering; swift-nio-ssl would
/// put an event loop between us and the socket and compile a second BoringSSL
/// on every fresh clone (minutes on the 2-core machines). Debian's libssl-dev
/// is one package (scripts/install-deps) and a handful of calls.
public final class TLSClientContext {
    let context: OpaquePointer

    public init() throws {
        // A server that closes mid-write must not kill the tool: OpenSSL
        // writes with write(2), which raises SIGPIPE on a closed connection.
        signal(SIGPIPE, SIG_IGN)
        guard let context = SSL_CTX_new(TLS_client_method()) else {
            throw AttackToolError.tls("SSL_CTX_new failed")
        }
        SSL_CTX_set_verify(context, SSL_VERIFY_NONE, nil)
        self.context = context
    }

    deinit { SSL_CTX_free(context) }
}
