import Model
import Ports

/// The user checks every adapter makes before a transaction starts, so
/// both databases accept the same names and credentials.
public enum UserFields {
    /// The stored form of a valid username (`SIPUsername.isValid`,
    /// lower-cased); `invalidUsername` otherwise.
    public static func normalizedUsername(_ username: String) throws -> String {
        guard SIPUsername.isValid(username) else { throw StorageError.invalidUsername(username) }
        return username.lowercased()
    }

    /// The realm and the lower-cased HA1 values, checked.
    /// - Throws: `invalidRealm`, `invalidHA1` (naming the field, never the value).
    public static func validatedCredentials(
        realm: String, ha1MD5: String, ha1SHA256: String
    ) throws -> (realm: String, md5: String, sha256: String) {
        guard !realm.isEmpty else { throw StorageError.invalidRealm(realm) }
        let md5 = ha1MD5.lowercased()
        let sha256 = ha1SHA256.lowercased()
        guard isHex(md5, length: 32) else { throw StorageError.invalidHA1(field: "ha1MD5") }
        guard isHex(sha256, length: 64) else { throw StorageError.invalidHA1(field: "ha1SHA256") }
        return (realm, md5, sha256)
    }

    private static func isHex(_ value: String, length: Int) -> Bool {
        value.utf8.count == length && value.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
