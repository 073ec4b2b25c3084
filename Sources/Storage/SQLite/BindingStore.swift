import Foundation
import GRDB
import Model
import Ports
import StorageSupport

/// The persisted location table: one `bindings` row per (AOR, binding key).
///
/// The server keeps the live table in memory and writes every change here
/// (through `BindingWriter`); at start it reloads with `loadAll()`.
public struct BindingStore: BindingRepository, BindingBatchStore {
    private let database: SipwakeDatabase

    public init(database: SipwakeDatabase) {
        self.database = database
    }

    /// Every stored binding, ordered by AOR then `updatedAt`, expired ones
    /// included (the registrar drops those on load). `source.connectionID` is
    /// nil: connections do not outlive the process.
    public func loadAll() throws -> [Binding] {
        try list(aor: nil)
    }

    /// The bindings of one AOR (case-insensitive), or of all when `aor` is nil,
    /// ordered by AOR then `updatedAt`. For `sipwake registrations list [--user]`.
    public func list(aor: String?) throws -> [Binding] {
        try database.pool.read { db in
            let rows: [Row]
            if let aor {
                rows = try Row.fetchAll(
                    db, sql: "SELECT * FROM bindings WHERE aor = ? ORDER BY updated_at, id",
                    arguments: [aor.lowercased()])
            } else {
                rows = try Row.fetchAll(db, sql: "SELECT * FROM bindings ORDER BY aor, updated_at, id")
            }
            return try rows.map(Self.binding)
        }
    }

    /// Number of stored bindings, expired or not.
    public func count() throws -> Int {
        try database.pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM bindings") ?? 0 }
    }

    /// Writes registrar decisions, all in ONE transaction: if any change fails
    /// (a constraint, the disk), none is written.
    ///
    /// - `added`: insert; if a row with the same AOR and key is already there
    ///   (the file and the memory drifted apart, e.g. after a crash between an
    ///   expiry and its write), it is overwritten: memory is the truth.
    /// - `refreshed`: update the row of (old AOR, old key). For a binding without
    ///   an instance id a new Contact URI is a new key: the old row is deleted and
    ///   the new one upserted.
    /// - `removed`: delete the row; a row already gone is not an error.
    public func apply(_ changes: [BindingChange]) throws {
        guard !changes.isEmpty else { return }
        try database.pool.write { db in
            try Self.apply(changes, in: db)
        }
    }

    /// A constraint, a value SQLite refuses, or a value that cannot be
    /// encoded (an `EncodingError` from one binding's path); not busy, full,
    /// I/O or closed.
    public func isCausedByTheData(_ error: Error) -> Bool {
        SipwakeDatabase.isCausedByTheData(error)
    }

    /// Deletes bindings that expired at or before `date`; returns how many.
    /// For maintenance (the server normally writes expiries as `removed` changes).
    @discardableResult
    public func deleteExpired(before date: Date) throws -> Int {
        try database.pool.write { db in
            try db.execute(
                sql: "DELETE FROM bindings WHERE expires_at <= ?", arguments: [date.timeIntervalSince1970])
            return db.changesCount
        }
    }

    // MARK: - Operator deletes (the deletion feed, `StorageMigrations.v6`)

    /// Deletes the binding of `aor` whose Contact URI is `contact`, and
    /// records it in the deletion feed, in one transaction.
    public func delete(aor: String, contact: String) throws -> Bool {
        let wanted = BindingKey(instanceID: nil, regID: nil, contact: contact)
        return try database.pool.write { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT id, contact FROM bindings WHERE aor = ?", arguments: [aor.lowercased()])
            guard let row = rows.first(where: {
                BindingKey(instanceID: nil, regID: nil, contact: $0["contact"]) == wanted
            }) else { return false }
            let id: Int64 = row["id"]
            try Self.deleteRecorded(where: "id = ?", arguments: [id], in: db)
            return true
        }
    }

    /// Deletes every binding of `aor` and records each in the deletion feed,
    /// in one transaction.
    public func deleteAll(aor: String) throws -> Int {
        try database.pool.write { db in
            try Self.deleteRecorded(where: "aor = ?", arguments: [aor.lowercased()], in: db)
        }
    }

    public func deletionsHead() throws -> Int64 {
        try database.pool.read { db in
            try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'binding_deletions'") ?? 0
        }
    }

    public func deletions(after seq: Int64, limit: Int) throws -> BindingDeletions {
        try database.pool.read { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT * FROM binding_deletions WHERE seq > ? ORDER BY seq LIMIT ?",
                arguments: [seq, limit])
            let deletions = rows.map { row in
                BindingDeletion(
                    aor: row["aor"],
                    key: BindingKey(instanceID: row["instance_id"], regID: row["reg_id"], contact: row["contact"]),
                    updatedAt: Date(timeIntervalSince1970: row["updated_at"]))
            }
            let through: Int64 = rows.last.map { $0["seq"] } ?? seq
            return BindingDeletions(deletions: deletions, through: through)
        }
    }

    /// Deletes the bindings `condition` selects, inside the caller's
    /// transaction, after copying each into the deletion feed (pruned to its
    /// latest `StorageMigrations.bindingDeletionsKept` entries). Returns how
    /// many were deleted. `UserStore.remove` uses it for a user's bindings.
    static func deleteRecorded(where condition: String, arguments: StatementArguments,
                               in db: Database) throws -> Int {
        try db.execute(
            sql: """
                INSERT INTO binding_deletions (aor, contact, instance_id, reg_id, updated_at)
                SELECT aor, contact, instance_id, reg_id, updated_at FROM bindings WHERE \(condition) ORDER BY id
                """,
            arguments: arguments)
        try db.execute(sql: "DELETE FROM bindings WHERE \(condition)", arguments: arguments)
        let deleted = db.changesCount
        if deleted > 0 {
            try db.execute(sql: """
                DELETE FROM binding_deletions
                WHERE seq <= (SELECT max(seq) FROM binding_deletions) - \(StorageMigrations.bindingDeletionsKept)
                """)
        }
        return deleted
    }

    // MARK: - SQL

    /// Applies `changes` inside the caller's transaction.
    static func apply(_ changes: [BindingChange], in db: Database) throws {
        for change in changes {
            switch change {
            case .added(let binding):
                try upsert(binding, in: db)
            case .refreshed(let old, let new):
                let oldKey = old.key.storageKey
                if old.aor != new.aor || oldKey != new.key.storageKey {
                    try delete(aor: old.aor, key: oldKey, in: db)
                }
                try upsert(new, in: db)
            case .removed(let binding, _):
                try delete(aor: binding.aor, key: binding.key.storageKey, in: db)
            }
        }
    }

    private static func delete(aor: String, key: String, in db: Database) throws {
        // Cached: the statement is compiled once per connection, not per write.
        try db.cachedStatement(sql: "DELETE FROM bindings WHERE aor = ? AND binding_key = ?")
            .execute(arguments: [aor, key])
    }

    private static func upsert(_ binding: Binding, in db: Database) throws {
        let path = try BindingColumns.pathJSON(binding.path)
        // Cached: the statement is compiled once per connection, not per write.
        try db.cachedStatement(
            sql: """
                INSERT INTO bindings (
                    aor, binding_key, contact, instance_id, reg_id, call_id, cseq, q, expires_at,
                    path, transport, source_host, source_port, user_agent, registered_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (aor, binding_key) DO UPDATE SET
                    (contact, instance_id, reg_id, call_id, cseq, q, expires_at, path, transport,
                     source_host, source_port, user_agent, registered_at, updated_at)
                    = (excluded.contact, excluded.instance_id, excluded.reg_id, excluded.call_id, excluded.cseq,
                       excluded.q, excluded.expires_at, excluded.path, excluded.transport, excluded.source_host,
                       excluded.source_port, excluded.user_agent, excluded.registered_at, excluded.updated_at)
                """
        ).execute(
            arguments: [
                binding.aor, binding.key.storageKey, binding.contact, binding.instanceID, binding.regID,
                binding.callID, Int64(binding.cseq), binding.q, binding.expiresAt.timeIntervalSince1970,
                path, binding.source.transport.rawValue, binding.source.host, binding.source.port,
                binding.userAgent, binding.registeredAt.timeIntervalSince1970,
                binding.updatedAt.timeIntervalSince1970,
            ])
    }

    private static func binding(_ row: Row) throws -> Binding {
        let (transport, path, cseq32) = try BindingColumns.decode(
            transport: row["transport"], path: row["path"], cseq: row["cseq"])
        return Binding(
            aor: row["aor"],
            contact: row["contact"],
            instanceID: row["instance_id"],
            regID: row["reg_id"],
            callID: row["call_id"],
            cseq: cseq32,
            q: row["q"],
            expiresAt: Date(timeIntervalSince1970: row["expires_at"]),
            path: path,
            source: BindingSource(transport: transport, host: row["source_host"], port: row["source_port"]),
            userAgent: row["user_agent"],
            registeredAt: Date(timeIntervalSince1970: row["registered_at"]),
            updatedAt: Date(timeIntervalSince1970: row["updated_at"]))
    }
}
