/// The digest hash algorithms the registrar offers: MD5 (RFC 2617) for the
/// phones that know nothing else, SHA-256 (RFC 7616, for SIP RFC 8760).
public enum DigestAlgorithm: String, Sendable, CaseIterable {
    case md5 = "MD5"
    case sha256 = "SHA-256"

    /// Parses the `algorithm` parameter. Tokens are case-insensitive
    /// (RFC 7616 §3.4); the `-sess` variants are not supported.
    public init?(token: String) {
        switch token.uppercased() {
        case "MD5": self = .md5
        case "SHA-256": self = .sha256
        default: return nil
        }
    }
}
