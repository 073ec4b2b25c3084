import Crypto
import Foundation

/// Stateless nonces (RFC 2617 §3.2.1 leaves the nonce's construction to the
/// server): nonce = base64url(timestamp || salt || HMAC-SHA256(secret,
/// timestamp || salt || realm)), the timestamp being milliseconds since 1970
/// as 8 big-endian bytes and the salt 8 random bytes. The server keeps no
/// nonce table: it recognises its own nonces by the MAC and their age by the
/// timestamp. The salt makes every challenge's nonce its own: without it, two
/// phones challenged in the same millisecond would share a nonce, and the
/// second one's first answer would look like a replay of the first's.
///
/// Issuing keeps no state; replay protection (each nonce-count used once, a
/// bounded number of uses per nonce) is `NonceTracker`'s, for the nonces
/// that have been answered.
public struct NonceIssuer: Sendable {
    public enum Validity: Sendable, Equatable {
        /// Issued by this server for this realm and younger than the lifetime.
        case valid
        /// Issued by this server but older than the lifetime: the client should
        /// retry with a fresh nonce without asking the user (RFC 2617 §3.2.1 `stale`).
        case stale
        /// Not one of ours: malformed, forged, or for another realm or secret.
        case invalid
    }

    private let secret: [UInt8]
    public let lifetime: TimeInterval
    /// Mixed into the MAC so that a nonce of one realm is refused in another.
    public var realm: String

    public init(secret: [UInt8], lifetime: TimeInterval) {
        self.init(secret: secret, lifetime: lifetime, realm: "")
    }

    public init(secret: [UInt8], lifetime: TimeInterval, realm: String) {
        self.secret = secret
        self.lifetime = lifetime
        self.realm = realm
    }

    /// Bytes before the MAC: the timestamp, then the salt.
    private static let prefixLength = 8 + 8

    public func make(now: Date) -> String {
        let millis = UInt64(max(0, (now.timeIntervalSince1970 * 1000).rounded(.down)))
        var prefix = withUnsafeBytes(of: millis.bigEndian) { Array($0) }
        var generator = SystemRandomNumberGenerator()
        prefix += withUnsafeBytes(of: generator.next() as UInt64) { Array($0) }
        return Self.base64url(prefix + mac(prefix))
    }

    /// Checks the MAC first, then the age. A nonce dated in the future by
    /// more than the lifetime is stale too (the clock has moved back).
    public func check(_ nonce: String, now: Date) -> Validity {
        guard let bytes = Self.decodeBase64url(nonce), bytes.count == Self.prefixLength + 32 else { return .invalid }
        let prefix = Array(bytes[0..<Self.prefixLength])
        let tag = Array(bytes[Self.prefixLength...])
        var message = prefix
        message.append(contentsOf: realm.utf8)
        guard HMAC<SHA256>.isValidAuthenticationCode(tag, authenticating: message, using: SymmetricKey(data: secret)) else {
            return .invalid
        }
        let millis = prefix[0..<8].reduce(UInt64(0)) { ($0 << 8) | UInt64($1) }
        let issued = Date(timeIntervalSince1970: TimeInterval(millis) / 1000)
        let age = now.timeIntervalSince(issued)
        return abs(age) > lifetime ? .stale : .valid
    }

    /// When a nonce was issued, read from the nonce itself; nil when it is
    /// not in our format. Meaningful only for a nonce `check` accepted.
    public func issueTime(of nonce: String) -> Date? {
        guard let bytes = Self.decodeBase64url(nonce), bytes.count == Self.prefixLength + 32 else { return nil }
        let millis = bytes[0..<8].reduce(UInt64(0)) { ($0 << 8) | UInt64($1) }
        return Date(timeIntervalSince1970: TimeInterval(millis) / 1000)
    }

    private func mac(_ prefix: [UInt8]) -> [UInt8] {
        var message = prefix
        message.append(contentsOf: realm.utf8)
        return Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: secret)))
    }

    /// RFC 4648 §5, without padding.
    private static func base64url(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    private static func decodeBase64url(_ text: String) -> [UInt8]? {
        guard text.utf8.allSatisfy({ byte in
            (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a) || (byte >= 0x30 && byte <= 0x39)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }) else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        let remainder = base64.count % 4
        if remainder == 1 { return nil }
        if remainder > 0 { base64 += String(repeating: "=", count: 4 - remainder) }
        guard let data = Data(base64Encoded: base64) else { return nil }
        return Array(data)
    }
}
