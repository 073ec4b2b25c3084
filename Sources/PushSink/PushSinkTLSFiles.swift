import NIOSSL

/// The PEM certificate chain and private key the push sink serves HTTPS with.
public struct PushSinkTLSFiles: Sendable, Equatable {
    public var certificate: String
    public var key: String

    public init(certificate: String, key: String) {
        self.certificate = certificate
        self.key = key
    }

    /// The server's TLS configuration, offering `h2` and `http/1.1`. Throws a
    /// ``PushSinkError`` naming the file when a file cannot be read, holds no
    /// PEM certificate or key, or the key does not belong to the certificate.
    public func serverConfiguration() throws(PushSinkError) -> TLSConfiguration {
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(certificate)
        } catch {
            throw PushSinkError("cannot read TLS certificate \(certificate): \(error)")
        }
        guard !chain.isEmpty else { throw PushSinkError("no PEM certificate in \(certificate)") }
        let privateKey: NIOSSLPrivateKey
        do {
            privateKey = try NIOSSLPrivateKey(file: key, format: .pem)
        } catch {
            throw PushSinkError("cannot read TLS private key \(key): \(error)")
        }
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(privateKey))
        configuration.applicationProtocols = ["h2", "http/1.1"]
        do {
            // Builds the context once, so a key that is not the certificate's fails here.
            _ = try NIOSSLContext(configuration: configuration)
        } catch {
            throw PushSinkError("TLS private key \(key) does not fit certificate \(certificate): \(error)")
        }
        return configuration
    }
}
