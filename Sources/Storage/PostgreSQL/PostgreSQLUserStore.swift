import Foundation
import Model
import Ports
import PostgresNIO
import StorageSupport

/// The SIP users on PostgreSQL, with the rules of `UserRepository`: every
/// write bumps `meta.users_version` in its transaction, so every node
/// notices a change with one cheap read.
public struct PostgreSQLUserStore: UserRepository {
    private let database: PostgreSQLDatabase

    public init(database: PostgreSQLDatabase) {
        self.database = database
    }

    @discardableResult
    public func add(username: String, realm: String, ha1MD5: String, ha1SHA256: String) throws -> UserRecord {
        let name = try UserFields.normalizedUsername(username)
        let credentials = try UserFields.validatedCredentials(realm: realm, ha1MD5: ha1MD5, ha1SHA256: ha1SHA256)
        let now = Date().timeIntervalSince1970
        return try database.write { db in
            // ON CONFLICT: another node adding the same user at the same time
            // is refused the same way, not with a constraint error.
            let inserted = try db.execute("""
                INSERT INTO users (username, realm, ha1_md5, ha1_sha256, wakeup_hold, created_at, updated_at)
                VALUES (\(name), \(credentials.realm), \(credentials.md5), \(credentials.sha256), TRUE, \(now), \(now))
                ON CONFLICT (username) DO NOTHING
                """)
            guard inserted == 1 else { throw StorageError.userExists(name) }
            try Self.bumpVersion(db)
            guard let record = try Self.fetch(db, username: name) else { throw StorageError.userNotFound(name) }
            return record
        }
    }

    public func setPassword(username: String, realm: String, ha1MD5: String, ha1SHA256: String) throws {
        let name = try UserFields.normalizedUsername(username)
        let credentials = try UserFields.validatedCredentials(realm: realm, ha1MD5: ha1MD5, ha1SHA256: ha1SHA256)
        let now = Date().timeIntervalSince1970
        try database.write { db in
            let changed = try db.execute("""
                UPDATE users SET realm = \(credentials.realm), ha1_md5 = \(credentials.md5),
                    ha1_sha256 = \(credentials.sha256), updated_at = \(now)
                WHERE username = \(name)
                """)
            guard changed == 1 else { throw StorageError.userNotFound(name) }
            try Self.bumpVersion(db)
        }
    }

    public func setWakeupHold(username: String, _ wakeupHold: Bool) throws {
        let name = try UserFields.normalizedUsername(username)
        let now = Date().timeIntervalSince1970
        try database.write { db in
            let changed = try db.execute(
                "UPDATE users SET wakeup_hold = \(wakeupHold), updated_at = \(now) WHERE username = \(name)")
            guard changed == 1 else { throw StorageError.userNotFound(name) }
            try Self.bumpVersion(db)
        }
    }

    /// Removes a user, her device tuples (the foreign key) and, in the same
    /// transaction, her bindings through the deletion feed.
    public func remove(username: String) throws {
        let name = try UserFields.normalizedUsername(username)
        try database.write { db in
            let removed = try db.execute("DELETE FROM users WHERE username = \(name)")
            guard removed == 1 else { throw StorageError.userNotFound(name) }
            _ = try PostgreSQLBindingStore.deleteRecorded(aor: name, in: db)
            try Self.bumpVersion(db)
        }
    }

    public func find(username: String) throws -> UserRecord? {
        guard let name = try? UserFields.normalizedUsername(username) else { return nil }
        return try database.read { db in try Self.fetch(db, username: name) }
    }

    public func list() throws -> [UserRecord] {
        try database.read { db in
            try db.rows("SELECT * FROM users ORDER BY username").map(Self.record)
        }
    }

    public func usersVersion() throws -> Int64 {
        try database.read { db in
            try db.value("SELECT value FROM meta WHERE key = 'users_version'", as: Int64.self) ?? 0
        }
    }

    private static func bumpVersion(_ db: PostgreSQLSession) throws {
        try db.execute("UPDATE meta SET value = value + 1 WHERE key = 'users_version'")
        try db.execute(PostgreSQLStoreNotifications.notify(.users))
    }

    private static func fetch(_ db: PostgreSQLSession, username: String) throws -> UserRecord? {
        try db.rows("SELECT * FROM users WHERE username = \(username)").first.map(record)
    }

    private static func record(_ row: PostgresRandomAccessRow) throws -> UserRecord {
        UserRecord(
            username: try row.column("username", in: "users"),
            realm: try row.column("realm", in: "users"),
            ha1MD5: try row.column("ha1_md5", in: "users"),
            ha1SHA256: try row.column("ha1_sha256", in: "users"),
            wakeupHold: try row.column("wakeup_hold", in: "users"),
            createdAt: Date(timeIntervalSince1970: try row.column("created_at", in: "users")),
            updatedAt: Date(timeIntervalSince1970: try row.column("updated_at", in: "users")))
    }
}
