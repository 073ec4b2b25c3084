/// The two HA1s stored for a user: MD5 (RFC 2617) and SHA-256 (RFC 8760),
/// computed from a password the operator gives (`sipwake users add` and
/// `password`, the admin API's users routes), which is never stored.
public struct PasswordHashes: Sendable {
    public let md5: String
    public let sha256: String

    /// The longest password accepted.
    public static let maxLength = 256

    /// Why `password` is refused, or nil when it is acceptable.
    public static func refusal(of password: String) -> String? {
        if password.isEmpty { return "the password must not be empty" }
        if password.count > maxLength { return "the password is longer than \(maxLength) characters" }
        return nil
    }

    /// The HA1s of an acceptable password (`refusal(of:)` is nil).
    public init(username: String, realm: String, password: String) {
        md5 = DigestHash.ha1(username: username, realm: realm, password: password, algorithm: .md5)
        sha256 = DigestHash.ha1(username: username, realm: realm, password: password, algorithm: .sha256)
    }
}
