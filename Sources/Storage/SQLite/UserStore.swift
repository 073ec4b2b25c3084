import Foundation
import GRDB
import Model
import Ports
import StorageSupport

/// The SIP users: username, realm and digest HA1 values.
///
/// Every write bumps `meta.users_version` in the same transaction, so the
/// server can notice a CLI change with one cheap read (`usersVersion()`).
public struct UserStore: UserRepository {
    private let database: SipwakeDatabase

    public init(database: SipwakeDatabase) {
        self.database = database
    }

    /// Adds a user with `wakeupHold` on. The username is lower-cased.
    /// ha1 values are computed by the caller (Registrar.DigestHash); the store never sees a password.
    /// - Throws: `invalidUsername`, `invalidRealm`, `invalidHA1`, or `userExists` on duplicate;
    ///   nothing is written then.
    @discardableResult
    public func add(username: String, realm: String, ha1MD5: String, ha1SHA256: String) throws -> UserRecord {
        let name = try Self.normalizedUsername(username)
        let credentials = try UserFields.validatedCredentials(realm: realm, ha1MD5: ha1MD5, ha1SHA256: ha1SHA256)
        let now = Date().timeIntervalSince1970
        return try database.pool.write { db in
            if try Self.fetch(db, username: name) != nil {
                throw StorageError.userExists(name)
            }
            try db.execute(
                sql: """
                    INSERT INTO users (username, realm, ha1_md5, ha1_sha256, wakeup_hold, created_at, updated_at)
                    VALUES (?, ?, ?, ?, 1, ?, ?)
                    """,
                arguments: [name, credentials.realm, credentials.md5, credentials.sha256, now, now])
            try Self.bumpVersion(db)
            // Read back, so the returned record equals what `find` returns.
            guard let record = try Self.fetch(db, username: name) else {
                throw StorageError.userNotFound(name)
            }
            return record
        }
    }

    /// Replaces a user's realm and HA1 values (a password change).
    /// - Throws: `userNotFound`, or a validation error; nothing is written then.
    public func setPassword(username: String, realm: String, ha1MD5: String, ha1SHA256: String) throws {
        let name = try Self.normalizedUsername(username)
        let credentials = try UserFields.validatedCredentials(realm: realm, ha1MD5: ha1MD5, ha1SHA256: ha1SHA256)
        let now = Date().timeIntervalSince1970
        try database.pool.write { db in
            try db.execute(
                sql: "UPDATE users SET realm = ?, ha1_md5 = ?, ha1_sha256 = ?, updated_at = ? WHERE username = ?",
                arguments: [credentials.realm, credentials.md5, credentials.sha256, now, name])
            guard db.changesCount == 1 else { throw StorageError.userNotFound(name) }
            try Self.bumpVersion(db)
        }
    }

    /// Turns the wake-up hold (wait for the push before forking) on or off.
    /// - Throws: `userNotFound`.
    public func setWakeupHold(username: String, _ wakeupHold: Bool) throws {
        let name = try Self.normalizedUsername(username)
        let now = Date().timeIntervalSince1970
        try database.pool.write { db in
            try db.execute(
                sql: "UPDATE users SET wakeup_hold = ?, updated_at = ? WHERE username = ?",
                arguments: [wakeupHold, now, name])
            guard db.changesCount == 1 else { throw StorageError.userNotFound(name) }
            try Self.bumpVersion(db)
        }
    }

    /// Removes a user and, in the same transaction, that user's bindings
    /// (recorded in the binding-deletion feed).
    /// - Throws: `userNotFound`; nothing is written then.
    public func remove(username: String) throws {
        let name = try Self.normalizedUsername(username)
        try database.pool.write { db in
            try db.execute(sql: "DELETE FROM users WHERE username = ?", arguments: [name])
            guard db.changesCount == 1 else { throw StorageError.userNotFound(name) }
            // Through the deletion feed: a running server drops them too.
            _ = try BindingStore.deleteRecorded(where: "aor = ?", arguments: [name], in: db)
            try Self.bumpVersion(db)
        }
    }

    /// The user, or nil. The lookup is case-insensitive (usernames are stored lower-cased).
    /// An invalid username is simply not found.
    public func find(username: String) throws -> UserRecord? {
        guard let name = try? Self.normalizedUsername(username) else { return nil }
        return try database.pool.read { db in try Self.fetch(db, username: name) }
    }

    /// Every user, ordered by username.
    public func list() throws -> [UserRecord] {
        try database.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM users ORDER BY username").map(Self.record)
        }
    }

    /// Cheap change detector for the server's in-memory credential cache.
    /// SQLite `PRAGMA data_version` is per-connection, so instead every user
    /// write bumps the `meta` row `users_version` in its own transaction; this
    /// returns it. Any process's write changes it.
    public func usersVersion() throws -> Int64 {
        try database.pool.read { db in
            try Int64.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'users_version'") ?? 0
        }
    }

    // MARK: - Validation

    /// Whether `username` is acceptable to `add` (`SIPUsername.isValid`).
    public static func isValidUsername(_ username: String) -> Bool {
        SIPUsername.isValid(username)
    }

    /// The stored form of a valid username (lower-cased); `invalidUsername` otherwise.
    static func normalizedUsername(_ username: String) throws -> String {
        try UserFields.normalizedUsername(username)
    }

    // MARK: - Rows

    private static func bumpVersion(_ db: Database) throws {
        try db.execute(sql: "UPDATE meta SET value = value + 1 WHERE key = 'users_version'")
    }

    private static func fetch(_ db: Database, username: String) throws -> UserRecord? {
        try Row.fetchOne(db, sql: "SELECT * FROM users WHERE username = ?", arguments: [username]).map(record)
    }

    private static func record(_ row: Row) -> UserRecord {
        UserRecord(
            username: row["username"],
            realm: row["realm"],
            ha1MD5: row["ha1_md5"],
            ha1SHA256: row["ha1_sha256"],
            wakeupHold: row["wakeup_hold"],
            createdAt: Date(timeIntervalSince1970: row["created_at"]),
            updatedAt: Date(timeIntervalSince1970: row["updated_at"]))
    }
}
