import Foundation
import Model
import Ports
import PostgresNIO
import StorageSupport

/// The stored story of each incoming call on PostgreSQL: the whole record
/// as JSON (the same bytes as in SQLite, `CallRecordRow`) and the fields
/// lists filter and sort on. Written through the `CallRecordWriter`.
public struct PostgreSQLCallRecordStore: CallRecordArchive, CallRecordBatchStore {
    private let database: PostgreSQLDatabase

    /// Rows deleted per transaction by `purge`, so a large purge never holds
    /// its locks long.
    static let purgeChunk: Int64 = 1000

    public init(database: PostgreSQLDatabase) {
        self.database = database
    }

    // MARK: - Writing

    /// Saves every record in ONE transaction: all are written or none.
    public func save(_ records: [CallRecord]) throws {
        try write(try records.map(CallRecordRow.encoded))
    }

    /// Writes encoded rows, and each one's push answers on its device
    /// tuples, in ONE transaction; the statements are sent without waiting
    /// for each answer.
    public func write(_ rows: [CallRecordRow]) throws {
        guard !rows.isEmpty else { return }
        var statements: [PostgresQuery] = []
        for row in rows {
            statements.append(Self.upsert(row, node: database.node))
            for push in row.pushResults {
                statements.append(PostgreSQLTupleStore.pushResult(
                    id: push.tupleID, at: push.at, sentAt: push.sentAt, status: push.status, result: push.result))
            }
        }
        try database.write { db in try db.executeAll(statements) }
    }

    @discardableResult
    public func hangUp(_ byes: [CallHangUp]) throws -> Int {
        guard !byes.isEmpty else { return 0 }
        return try database.write { db in
            var changed = 0
            for bye in byes {
                let rows = try db.rows("""
                    SELECT id, record FROM call_records WHERE call_id = \(bye.callID)
                    ORDER BY started_at DESC, id DESC FOR UPDATE
                    """)
                for row in rows {
                    guard let record = try? Self.record(row), let ended = record.hangingUp(bye) else { continue }
                    try db.execute(Self.upsert(try CallRecordRow.encoded(ended), node: database.node))
                    changed += 1
                    break
                }
            }
            return changed
        }
    }

    public func isCausedByTheData(_ error: Error) -> Bool {
        guard let error = error as? PostgreSQLStorageError else { return true }
        return error.isCausedByTheData
    }

    /// Closes the open records of calls no running node holds: a record
    /// names the node that first saved it, and a node is running while it
    /// has a connection to the database (its LISTEN connection never
    /// closes), which `pg_stat_activity` shows by its application name.
    /// So a node starting, or sweeping every minute, closes a stopped
    /// node's calls and leaves the others' alone. A record of a node that
    /// lost every connection for a moment may be closed too early; its next
    /// save writes it whole again.
    public func closeOpenRecords() throws -> (closed: Int, unreadable: [String]) {
        try database.write { db in
            let open = try db.rows("""
                SELECT id, record FROM call_records
                WHERE (outcome IS NULL OR ended_at IS NULL)
                  AND (node IS NULL OR node NOT IN (
                      SELECT substr(application_name, \(Int32(PostgreSQLDatabase.applicationNamePrefix.count + 1)))
                      FROM pg_stat_activity
                      WHERE starts_with(application_name, \(PostgreSQLDatabase.applicationNamePrefix))))
                FOR UPDATE
                """)
            var closed = 0
            var unreadable: [String] = []
            for row in open {
                let id: String = try row.column("id", in: "call_records")
                guard let record = try? Self.record(row) else {
                    unreadable.append(id)
                    continue
                }
                try db.execute(Self.upsert(try CallRecordRow.encoded(CallRecordRow.closedAtStart(record)),
                                           node: database.node))
                closed += 1
            }
            return (closed, unreadable)
        }
    }

    @discardableResult
    public func purge(startedBefore date: Date) throws -> Int {
        let cutoff = date.timeIntervalSince1970
        var purged = 0
        while true {
            let deleted = try database.write { db in
                try db.execute("""
                    DELETE FROM call_records WHERE id IN (
                        SELECT id FROM call_records WHERE started_at < \(cutoff) LIMIT \(Self.purgeChunk))
                    """)
            }
            purged += deleted
            if deleted < Self.purgeChunk { return purged }
        }
    }

    // MARK: - Reading

    public func list(callee: String? = nil, outcome: CallOutcome? = nil, limit: Int = 50, offset: Int = 0) throws
        -> [CallRecord]
    {
        guard limit >= 0 else { throw StorageError.invalidField(name: "limit", reason: "must not be negative") }
        guard offset >= 0 else { throw StorageError.invalidField(name: "offset", reason: "must not be negative") }
        var query = Self.filtered("SELECT id, record FROM call_records", callee: callee, outcome: outcome)
        query.sql += " ORDER BY started_at DESC, id DESC LIMIT $\(query.binds.count + 1) OFFSET $\(query.binds.count + 2)"
        query.binds.append(Int64(limit))
        query.binds.append(Int64(offset))
        return try database.read { db in try db.rows(query).map(Self.record) }
    }

    public func count(callee: String? = nil, outcome: CallOutcome? = nil) throws -> Int {
        let query = Self.filtered("SELECT count(*) FROM call_records", callee: callee, outcome: outcome)
        return try database.read { db in Int(try db.value(query, as: Int64.self) ?? 0) }
    }

    public func find(_ key: String) throws -> CallRecord? {
        guard !key.isEmpty else { return nil }
        return try database.read { db in
            for column in ["id", "pairing_id", "call_id"] {
                let query = PostgresQuery(
                    unsafeSQL: "SELECT id, record FROM call_records WHERE \(column) = $1 ORDER BY started_at DESC, id DESC LIMIT 1",
                    binds: { var binds = PostgresBindings(); binds.append(key); return binds }())
                if let row = try db.rows(query).first { return try Self.record(row) }
            }
            return nil
        }
    }

    // MARK: - Rows

    /// `select` with the list filters as a WHERE clause, values bound.
    private static func filtered(_ select: String, callee: String?, outcome: CallOutcome?) -> PostgresQuery {
        var clauses: [String] = []
        var binds = PostgresBindings()
        if let callee {
            binds.append(callee.lowercased())
            clauses.append("callee = $\(binds.count)")
        }
        if let outcome {
            binds.append(outcome.rawValue)
            clauses.append("outcome = $\(binds.count)")
        }
        let sql = select + (clauses.isEmpty ? "" : " WHERE " + clauses.joined(separator: " AND "))
        return PostgresQuery(unsafeSQL: sql, binds: binds)
    }

    /// Inserts or replaces `row`. `node` is kept from the first save: the
    /// node that held the call (a later save by another process, such as
    /// the clean-up of a stopped node's calls, does not change it).
    private static func upsert(_ row: CallRecordRow, node: String) -> PostgresQuery {
        let finalStatus = row.finalStatus.map(Int64.init)
        return """
            INSERT INTO call_records (
                id, pairing_id, call_id, callee, caller, started_at, ended_at, outcome, final_status, record, node)
            VALUES (\(row.id), \(row.pairingID), \(row.callID), \(row.callee), \(row.caller), \(row.startedAt),
                    \(row.endedAt), \(row.outcome), \(finalStatus), \(row.record), \(node))
            ON CONFLICT (id) DO UPDATE SET
                (pairing_id, call_id, callee, caller, started_at, ended_at, outcome, final_status, record)
                = (EXCLUDED.pairing_id, EXCLUDED.call_id, EXCLUDED.callee, EXCLUDED.caller, EXCLUDED.started_at,
                   EXCLUDED.ended_at, EXCLUDED.outcome, EXCLUDED.final_status, EXCLUDED.record)
            """
    }

    private static func record(_ row: PostgresRandomAccessRow) throws -> CallRecord {
        try CallRecordRow.decoded(try row.column("record", in: "call_records"),
                                  id: try row.column("id", in: "call_records"))
    }
}
