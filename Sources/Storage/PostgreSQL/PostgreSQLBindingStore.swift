import Foundation
import Model
import Ports
import PostgresNIO
import StorageSupport

/// The persisted location table on PostgreSQL: one `bindings` row per (AOR,
/// binding key), written through the `BindingWriter` (group commit), read
/// at start, by the admin API and the CLI.
public struct PostgreSQLBindingStore: BindingRepository, BindingBatchStore {
    private let database: PostgreSQLDatabase

    public init(database: PostgreSQLDatabase) {
        self.database = database
    }

    public func loadAll() throws -> [Binding] {
        try list(aor: nil)
    }

    public func list(aor: String?) throws -> [Binding] {
        try database.read { db in
            let rows: [PostgresRandomAccessRow]
            if let aor {
                rows = try db.rows("SELECT * FROM bindings WHERE aor = \(aor.lowercased()) ORDER BY updated_at, id")
            } else {
                rows = try db.rows("SELECT * FROM bindings ORDER BY aor, updated_at, id")
            }
            return try rows.map(Self.binding)
        }
    }

    public func count() throws -> Int {
        try database.read { db in Int(try db.value("SELECT count(*) FROM bindings", as: Int64.self) ?? 0) }
    }

    /// Writes registrar decisions in ONE transaction, with the rules of
    /// the SQLite adapter: `added` overwrites a drifted row, `refreshed`
    /// moves a row whose key changed, `removed` of a missing row is no
    /// error. Rows are keyed by (AOR, binding key), so applying the changes
    /// in order leaves each key as its last change says; the batch is
    /// written as that end state, in one DELETE and one multi-row upsert per
    /// `upsertRowsPerStatement` rows: a few round trips per batch, however
    /// many REGISTERs it carries.
    public func apply(_ changes: [BindingChange]) throws {
        guard !changes.isEmpty else { return }
        var last: [BindingRowKey: Binding?] = [:]
        for change in changes {
            switch change {
            case .added(let binding):
                last[BindingRowKey(binding)] = .some(binding)
            case .refreshed(let old, let new):
                if BindingRowKey(old) != BindingRowKey(new) { last[BindingRowKey(old)] = .some(nil) }
                last[BindingRowKey(new)] = .some(new)
            case .removed(let binding, _):
                last[BindingRowKey(binding)] = .some(nil)
            }
        }
        var statements: [PostgresQuery] = []
        let deleted = last.filter { $0.value == nil }.map(\.key)
        if !deleted.isEmpty {
            statements.append("""
                DELETE FROM bindings WHERE (aor, binding_key) IN
                    (SELECT * FROM unnest(\(deleted.map(\.aor))::text[], \(deleted.map(\.key))::text[]))
                """)
        }
        let upserted = last.values.compactMap { $0 }
        for start in stride(from: 0, to: upserted.count, by: Self.upsertRowsPerStatement) {
            let rows = upserted[start..<min(start + Self.upsertRowsPerStatement, upserted.count)]
            statements.append(try Self.upsert(Array(rows)))
        }
        let events = try Self.events(changes)
        try database.write { db in
            try db.executeAll(statements)
            try Self.announce(events, node: database.node, in: db)
        }
    }

    /// The changes as the event feed carries them: each binding as it is
    /// stored now (`saved`), or as it was (`removed`), JSON-encoded.
    static func events(_ changes: [BindingChange]) throws -> [(kind: BindingEvent.Kind, binding: String)] {
        let encoder = JSONEncoder()
        func json(_ binding: Binding) throws -> String { String(decoding: try encoder.encode(binding), as: UTF8.self) }
        var events: [(kind: BindingEvent.Kind, binding: String)] = []
        for change in changes {
            switch change {
            case .added(let binding):
                events.append((.saved, try json(binding)))
            case .refreshed(let old, let new):
                if BindingRowKey(old) != BindingRowKey(new) { events.append((.removed, try json(old))) }
                events.append((.saved, try json(new)))
            case .removed(let binding, _):
                events.append((.removed, try json(binding)))
            }
        }
        return events
    }

    /// Appends `events` to the binding event feed inside the caller's
    /// transaction, prunes the feed, and NOTIFYs the other nodes (delivered
    /// at commit, not at all on a rollback).
    static func announce(_ events: [(kind: BindingEvent.Kind, binding: String)], node: String,
                         in db: PostgreSQLSession) throws {
        guard !events.isEmpty else { return }
        let count = Int64(events.count)
        guard let head = try db.value(
            "UPDATE feed_heads SET seq = seq + \(count) WHERE feed = 'binding_events' RETURNING seq",
            as: Int64.self) else {
            throw StorageError.corruptRow(table: "feed_heads", detail: "the binding_events head is missing")
        }
        let seqs = (0..<count).map { head - count + 1 + $0 }
        let nodes = Array(repeating: node, count: events.count)
        let kinds = events.map(\.kind.rawValue)
        let bindings = events.map(\.binding)
        try db.executeAll([
            """
            INSERT INTO binding_events (seq, node, kind, binding)
            SELECT * FROM unnest(\(seqs)::bigint[], \(nodes)::text[], \(kinds)::text[], \(bindings)::text[])
            """,
            "DELETE FROM binding_events WHERE seq <= \(head - Int64(PostgreSQLMigrations.bindingEventsKept))",
            PostgreSQLStoreNotifications.notify(.bindings),
        ])
    }

    /// 16 values a row, below PostgreSQL's 65 535 parameters a statement.
    static let upsertRowsPerStatement = 1000

    /// A constraint or a value the server refuses (SQLSTATE 22, 23), or a
    /// path that cannot be encoded; not a lost connection or a time-out.
    public func isCausedByTheData(_ error: Error) -> Bool {
        guard let error = error as? PostgreSQLStorageError else { return true }
        return error.isCausedByTheData
    }

    @discardableResult
    public func deleteExpired(before date: Date) throws -> Int {
        try database.write { db in
            try db.execute("DELETE FROM bindings WHERE expires_at <= \(date.timeIntervalSince1970)")
        }
    }

    public func delete(aor: String, contact: String) throws -> Bool {
        let wanted = BindingKey(instanceID: nil, regID: nil, contact: contact)
        return try database.write { db in
            // The first binding with that Contact, as the SQLite adapter does.
            try Self.deleteRecorded(aor: aor.lowercased(), in: db) { contacts in
                contacts.firstIndex { BindingKey(instanceID: nil, regID: nil, contact: $0) == wanted }.map { [$0] } ?? []
            } > 0
        }
    }

    public func deleteAll(aor: String) throws -> Int {
        try database.write { db in try Self.deleteRecorded(aor: aor.lowercased(), in: db) }
    }

    public func deletionsHead() throws -> Int64 {
        try database.read { db in
            try db.value("SELECT seq FROM feed_heads WHERE feed = 'binding_deletions'", as: Int64.self) ?? 0
        }
    }

    public func deletions(after seq: Int64, limit: Int) throws -> BindingDeletions {
        try database.read { db in
            let rows = try db.rows(
                "SELECT * FROM binding_deletions WHERE seq > \(seq) ORDER BY seq LIMIT \(Int64(max(limit, 0)))")
            let deletions = try rows.map { row in
                BindingDeletion(
                    aor: try row.column("aor", in: "binding_deletions"),
                    key: BindingKey(instanceID: try row.column("instance_id", in: "binding_deletions"),
                                    regID: try row.column("reg_id", in: "binding_deletions", as: Int?.self),
                                    contact: try row.column("contact", in: "binding_deletions")),
                    updatedAt: Date(timeIntervalSince1970: try row.column("updated_at", in: "binding_deletions")))
            }
            let through = try rows.last.map { try $0.column("seq", in: "binding_deletions", as: Int64.self) } ?? seq
            return BindingDeletions(deletions: deletions, through: through)
        }
    }

    /// Deletes the bindings of `aor` (all, or those at the positions
    /// `choose` picks among their Contact URIs, in id order), inside the caller's transaction, after copying each
    /// into the deletion feed (numbered through `feed_heads`, pruned to its
    /// latest `bindingDeletionsKept` entries). Returns how many.
    /// `PostgreSQLUserStore.remove` uses it for a user's bindings.
    static func deleteRecorded(aor: String, in db: PostgreSQLSession,
                               choose: (([String]) -> [Int])? = nil) throws -> Int {
        var rows = try db.rows("""
            SELECT id, contact, instance_id, reg_id, updated_at FROM bindings
            WHERE aor = \(aor) ORDER BY id FOR UPDATE
            """)
        if let choose {
            let chosen = choose(try rows.map { try $0.column("contact", in: "bindings") })
            rows = chosen.map { rows[$0] }
        }
        guard !rows.isEmpty else { return 0 }
        let count = Int64(rows.count)
        guard let head = try db.value(
            "UPDATE feed_heads SET seq = seq + \(count) WHERE feed = 'binding_deletions' RETURNING seq",
            as: Int64.self) else {
            throw StorageError.corruptRow(table: "feed_heads", detail: "the binding_deletions head is missing")
        }
        var statements: [PostgresQuery] = []
        var ids: [Int64] = []
        for (offset, row) in rows.enumerated() {
            let seq = head - count + 1 + Int64(offset)
            let id: Int64 = try row.column("id", in: "bindings")
            let contact: String = try row.column("contact", in: "bindings")
            let instanceID: String? = try row.column("instance_id", in: "bindings")
            let regID: Int64? = try row.column("reg_id", in: "bindings")
            let updatedAt: Double = try row.column("updated_at", in: "bindings")
            ids.append(id)
            statements.append("""
                INSERT INTO binding_deletions (seq, aor, contact, instance_id, reg_id, updated_at)
                VALUES (\(seq), \(aor), \(contact), \(instanceID), \(regID), \(updatedAt))
                """)
        }
        statements.append("DELETE FROM bindings WHERE id = ANY(\(ids))")
        statements.append(
            "DELETE FROM binding_deletions WHERE seq <= \(head - Int64(PostgreSQLMigrations.bindingDeletionsKept))")
        statements.append(PostgreSQLStoreNotifications.notify(.bindingDeletions))
        try db.executeAll(statements)
        return rows.count
    }

    // MARK: - SQL

    private static func upsert(_ bindings: [Binding]) throws -> PostgresQuery {
        var binds = PostgresBindings(capacity: bindings.count * 16)
        var rows: [String] = []
        rows.reserveCapacity(bindings.count)
        for binding in bindings {
            let first = binds.count + 1
            binds.append(binding.aor)
            binds.append(binding.key.storageKey)
            binds.append(binding.contact)
            binds.append(binding.instanceID)
            binds.append(binding.regID.map(Int64.init))
            binds.append(binding.callID)
            binds.append(Int64(binding.cseq))
            binds.append(binding.q.map(Int64.init))
            binds.append(binding.expiresAt.timeIntervalSince1970)
            binds.append(try BindingColumns.pathJSON(binding.path))
            binds.append(binding.source.transport.rawValue)
            binds.append(binding.source.host)
            binds.append(Int64(binding.source.port))
            binds.append(binding.userAgent)
            binds.append(binding.registeredAt.timeIntervalSince1970)
            binds.append(binding.updatedAt.timeIntervalSince1970)
            rows.append("(" + (first..<first + 16).map { "$\($0)" }.joined(separator: ", ") + ")")
        }
        return PostgresQuery(unsafeSQL: """
            INSERT INTO bindings (
                aor, binding_key, contact, instance_id, reg_id, call_id, cseq, q, expires_at,
                path, transport, source_host, source_port, user_agent, registered_at, updated_at)
            VALUES \(rows.joined(separator: ", "))
            ON CONFLICT (aor, binding_key) DO UPDATE SET
                (contact, instance_id, reg_id, call_id, cseq, q, expires_at, path, transport,
                 source_host, source_port, user_agent, registered_at, updated_at)
                = (EXCLUDED.contact, EXCLUDED.instance_id, EXCLUDED.reg_id, EXCLUDED.call_id, EXCLUDED.cseq,
                   EXCLUDED.q, EXCLUDED.expires_at, EXCLUDED.path, EXCLUDED.transport, EXCLUDED.source_host,
                   EXCLUDED.source_port, EXCLUDED.user_agent, EXCLUDED.registered_at, EXCLUDED.updated_at)
            """, binds: binds)
    }

    private static func binding(_ row: PostgresRandomAccessRow) throws -> Binding {
        let (transport, path, cseq32) = try BindingColumns.decode(
            transport: try row.column("transport", in: "bindings"), path: try row.column("path", in: "bindings"),
            cseq: try row.column("cseq", in: "bindings"))
        let regID: Int64? = try row.column("reg_id", in: "bindings")
        let q: Int64? = try row.column("q", in: "bindings")
        let port: Int64 = try row.column("source_port", in: "bindings")
        return Binding(
            aor: try row.column("aor", in: "bindings"),
            contact: try row.column("contact", in: "bindings"),
            instanceID: try row.column("instance_id", in: "bindings"),
            regID: regID.map(Int.init),
            callID: try row.column("call_id", in: "bindings"),
            cseq: cseq32,
            q: q.map(Int.init),
            expiresAt: Date(timeIntervalSince1970: try row.column("expires_at", in: "bindings")),
            path: path,
            source: BindingSource(transport: transport, host: try row.column("source_host", in: "bindings"),
                                  port: Int(port)),
            userAgent: try row.column("user_agent", in: "bindings"),
            registeredAt: Date(timeIntervalSince1970: try row.column("registered_at", in: "bindings")),
            updatedAt: Date(timeIntervalSince1970: try row.column("updated_at", in: "bindings")))
    }
}
