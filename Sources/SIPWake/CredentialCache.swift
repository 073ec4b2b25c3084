import Model
import Ports
import Registrar

/// The HA1s of every user, in memory on the SIP loop, so that checking a
/// REGISTER's credentials never waits on disk. Refreshed from the database
/// when the users table changes (the CLI adds users while the server runs).
struct CredentialCache {
    private(set) var users: [String: UserRecord] = [:]
    private(set) var version: Int64 = -1

    mutating func replace(with records: [UserRecord], version: Int64) {
        users = Dictionary(records.map { ($0.username, $0) }, uniquingKeysWith: { _, last in last })
        self.version = version
    }

    mutating func insert(_ record: UserRecord) {
        users[record.username] = record
    }

    func ha1(username: String, algorithm: DigestAlgorithm) -> String? {
        guard let user = users[username.lowercased()] else { return nil }
        switch algorithm {
        case .md5: return user.ha1MD5
        case .sha256: return user.ha1SHA256
        }
    }

    func contains(_ username: String) -> Bool { users[username.lowercased()] != nil }
}
