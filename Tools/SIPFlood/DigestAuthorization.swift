import Crypto
import Foundation

/// The answer to an MD5 digest challenge (RFC 2617 §3.2.2), computed here
/// with swift-crypto rather than with sipwake's own code, so that the probe
/// checks the server instead of agreeing with it.
public struct DigestAuthorization: Sendable {
    public let username: String
    public let password: String

    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }

    public static func md5(_ text: String) -> String {
        Insecure.MD5.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// response = MD5(HA1:nonce:nc:cnonce:qop:HA2) with qop=auth, else
    /// MD5(HA1:nonce:HA2); HA1 = MD5(user:realm:password), HA2 = MD5(method:uri).
    public func response(challenge: DigestChallengeFields, method: String, uri: String, nc: Int, cnonce: String) -> String {
        let ha1 = Self.md5("\(username):\(challenge.realm):\(password)")
        let ha2 = Self.md5("\(method):\(uri)")
        if challenge.qop.contains("auth") {
            return Self.md5("\(ha1):\(challenge.nonce):\(Self.nonceCount(nc)):\(cnonce):auth:\(ha2)")
        }
        return Self.md5("\(ha1):\(challenge.nonce):\(ha2)")
    }

    /// The Authorization header value.
    public func header(challenge: DigestChallengeFields, method: String, uri: String, nc: Int, cnonce: String) -> String {
        let response = response(challenge: challenge, method: method, uri: uri, nc: nc, cnonce: cnonce)
        var value = "Digest username=\"\(username)\", realm=\"\(challenge.realm)\", nonce=\"\(challenge.nonce)\", " +
            "uri=\"\(uri)\", response=\"\(response)\", algorithm=MD5"
        if challenge.qop.contains("auth") {
            value += ", qop=auth, nc=\(Self.nonceCount(nc)), cnonce=\"\(cnonce)\""
        }
        if let opaque = challenge.opaque { value += ", opaque=\"\(opaque)\"" }
        return value
    }

    /// Eight hexadecimal digits.
    public static func nonceCount(_ nc: Int) -> String {
        let hex = String(nc, radix: 16)
        return String(repeating: "0", count: max(0, 8 - hex.count)) + hex
    }
}
