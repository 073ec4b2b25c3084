import Foundation

/// One SIP user, as stored in `users`. Holds the digest HA1 values only; the
/// password itself is never stored nor seen by the store.
public struct UserRecord: Sendable, Equatable, Codable {
    /// Lower-cased; also the AOR of the user's bindings.
    public var username: String
    public var realm: String
    /// MD5(username:realm:password), lower-case hex (RFC 2617).
    public var ha1MD5: String
    /// SHA-256(username:realm:password), lower-case hex (RFC 7616).
    public var ha1SHA256: String
    /// Whether calls to this user wait for a push to wake the phone.
    public var wakeupHold: Bool
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        username: String, realm: String, ha1MD5: String, ha1SHA256: String,
        wakeupHold: Bool, createdAt: Date, updatedAt: Date
    ) {
        self.username = username
        self.realm = realm
        self.ha1MD5 = ha1MD5
        self.ha1SHA256 = ha1SHA256
        self.wakeupHold = wakeupHold
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}
