/// `[tls]`: the certificate for `tls:` listen addresses.
public struct TLSSection: Sendable, Hashable {
    /// PEM certificate (chain) file, absolute after loading; "" = none.
    public var certificate: String
    /// PEM private key file, absolute after loading; "" = none.
    public var key: String

    public init(certificate: String = "", key: String = "") {
        self.certificate = certificate
        self.key = key
    }

    /// Whether both files are configured.
    public var isConfigured: Bool { !certificate.isEmpty && !key.isEmpty }
}
