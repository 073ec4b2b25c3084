/// One WWW-Authenticate / Proxy-Authenticate challenge (RFC 2617 §3.2.1,
/// RFC 7616 §3.3), always with qop="auth".
public struct DigestChallenge: Sendable, Equatable {
    public var algorithm: DigestAlgorithm
    public var realm: String
    public var nonce: String
    /// RFC 2617 §3.2.1: the previous nonce was genuine but too old; the client
    /// should retry with the new nonce without prompting for a password.
    public var stale: Bool

    public init(algorithm: DigestAlgorithm, realm: String, nonce: String, stale: Bool) {
        self.algorithm = algorithm
        self.realm = realm
        self.nonce = nonce
        self.stale = stale
    }

    /// The header value, e.g.
    /// `Digest realm="x", nonce="...", algorithm=SHA-256, qop="auth", stale=true`.
    /// `stale` is sent only when true (RFC 2617 §3.2.1: absent means false).
    public var headerValue: String {
        var value = "Digest realm=\(Self.quoted(realm)), nonce=\(Self.quoted(nonce)), algorithm=\(algorithm.rawValue), qop=\"auth\""
        if stale { value += ", stale=true" }
        return value
    }

    /// RFC 3261 §25.1 quoted-string: backslash-escapes `"` and `\`.
    private static func quoted(_ text: String) -> String {
        var out = "\""
        for character in text {
            if character == "\"" || character == "\\" { out.append("\\") }
            out.append(character)
        }
        return out + "\""
    }
}
