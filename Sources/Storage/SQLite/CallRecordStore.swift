import Foundation
import GRDB
import Model
import Ports
import StorageSupport

/// The stored story of each incoming call (`call_records`), for
/// `sipwake calls` and the admin API.
///
/// A row holds the whole `CallRecord` as JSON plus copies of the fields lists
/// filter and sort on. The server saves a call several times while it runs
/// (start, end, answered end pushes, forgotten), through `CallRecordWriter`;
/// each save replaces the whole record in one statement, so a reader sees one
/// complete version or the next, never half of one.
public struct CallRecordStore: CallRecordArchive, CallRecordBatchStore {
    private let database: SipwakeDatabase

    /// Rows deleted per transaction by `purge`: the server's other writes
    /// (bindings, whose 200 OK waits for the commit) get the write lock
    /// between chunks instead of waiting for the whole purge.
    static let purgeChunk = 1000

    public init(database: SipwakeDatabase) {
        self.database = database
    }

    // MARK: - Writing

    /// Inserts the record, or replaces the stored one with the same id.
    /// - Throws: `invalidField` for an empty id; nothing is written then.
    public func save(_ record: CallRecord) throws {
        try save([record])
    }

    /// Saves every record in ONE transaction: all are written or none. A
    /// record listed twice is stored as its last version. Each record's last
    /// answered push per device tuple is also written on that tuple.
    /// - Throws: `invalidField` for an empty id, or an encoding error; nothing is written then.
    public func save(_ records: [CallRecord]) throws {
        try write(try records.map(CallRecordRow.encoded))
    }

    /// Writes rows already encoded by `encoded(_:)`, in ONE transaction.
    public func write(_ rows: [CallRecordRow]) throws {
        guard !rows.isEmpty else { return }
        try database.pool.write { db in
            for row in rows {
                try Self.upsert(row, in: db)
                for push in row.pushResults {
                    try TupleStore.writePushResult(db, id: push.tupleID, at: push.at, sentAt: push.sentAt,
                                                   status: push.status, result: push.result)
                }
            }
        }
    }

    /// Gives each answered call a BYE ended its hang-up
    /// (`CallRecord.hangingUp`): of the records with the BYE's Call-ID, the
    /// newest whose answered dialog it is and that has none yet. One
    /// transaction. Returns how many records changed; a BYE of no recorded
    /// call changes nothing.
    @discardableResult
    public func hangUp(_ byes: [CallHangUp]) throws -> Int {
        guard !byes.isEmpty else { return 0 }
        return try database.pool.write { db in
            var changed = 0
            for bye in byes {
                let rows = try Row.fetchAll(
                    db, sql: "SELECT id, record FROM call_records WHERE call_id = ? ORDER BY started_at DESC, id DESC",
                    arguments: [bye.callID])
                for row in rows {
                    guard let record = try? CallRecordRow.decoded(row["record"], id: row["id"]),
                          let ended = record.hangingUp(bye) else { continue }
                    try Self.upsert(try CallRecordRow.encoded(ended), in: db)
                    changed += 1
                    break
                }
            }
            return changed
        }
    }

    /// Closes the records a crash left open (no outcome or no end time): each
    /// gets the outcome `interrupted`, an end time at the last thing known
    /// about the call (`CallRecord.lastKnownAt`: its latest event, push or
    /// branch time, else its start) and a timeline entry saying so. Run at
    /// start, before any call: no call survives a restart. One transaction.
    /// Returns how many were closed, and the ids of open rows whose record
    /// does not decode (left as they are).
    public func closeOpenRecords() throws -> (closed: Int, unreadable: [String]) {
        try database.pool.write { db in
            let open = try Row.fetchAll(
                db, sql: "SELECT id, record FROM call_records WHERE outcome IS NULL OR ended_at IS NULL")
            var closed = 0
            var unreadable: [String] = []
            for row in open {
                let id: String = row["id"]
                guard let record = try? CallRecordRow.decoded(row["record"], id: id) else {
                    unreadable.append(id)
                    continue
                }
                try Self.upsert(try CallRecordRow.encoded(CallRecordRow.closedAtStart(record)), in: db)
                closed += 1
            }
            return (closed, unreadable)
        }
    }

    /// Deletes records of calls that started before `date`; returns how many.
    /// Works in chunks of `purgeChunk` rows, one transaction each, so a large
    /// purge never holds the write lock long.
    @discardableResult
    public func purge(startedBefore date: Date) throws -> Int {
        let cutoff = date.timeIntervalSince1970
        var purged = 0
        while true {
            let deleted = try database.pool.write { db in
                try db.execute(
                    sql: """
                        DELETE FROM call_records WHERE id IN (
                            SELECT id FROM call_records WHERE started_at < ? LIMIT ?)
                        """,
                    arguments: [cutoff, Self.purgeChunk])
                return db.changesCount
            }
            purged += deleted
            if deleted < Self.purgeChunk { return purged }
        }
    }

    public func isCausedByTheData(_ error: Error) -> Bool {
        SipwakeDatabase.isCausedByTheData(error)
    }

    // MARK: - Reading

    /// Records newest first (by start time), all callees or one
    /// (case-insensitive), all outcomes or one. Calls still in progress have no
    /// outcome and only appear without an outcome filter.
    /// - Throws: `invalidField` for a negative limit or offset.
    public func list(callee: String? = nil, outcome: CallOutcome? = nil, limit: Int = 50, offset: Int = 0) throws
        -> [CallRecord]
    {
        guard limit >= 0 else { throw StorageError.invalidField(name: "limit", reason: "must not be negative") }
        guard offset >= 0 else { throw StorageError.invalidField(name: "offset", reason: "must not be negative") }
        let filter = Self.filter(callee: callee, outcome: outcome)
        return try database.pool.read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT id, record FROM call_records\(filter.sql) ORDER BY started_at DESC, id DESC LIMIT ? OFFSET ?",
                arguments: filter.arguments + [limit, offset]
            ).map { try CallRecordRow.decoded($0["record"], id: $0["id"]) }
        }
    }

    /// How many records `list` would return without paging.
    public func count(callee: String? = nil, outcome: CallOutcome? = nil) throws -> Int {
        let filter = Self.filter(callee: callee, outcome: outcome)
        return try database.pool.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM call_records\(filter.sql)", arguments: filter.arguments) ?? 0
        }
    }

    /// The record whose id is `key`; else the newest whose pairing id is
    /// `key` (the `Id` of the pushes, the `X-Push-ID` of the forked INVITEs);
    /// else the newest whose Call-ID is `key`. nil when none matches.
    public func find(_ key: String) throws -> CallRecord? {
        guard !key.isEmpty else { return nil }
        return try database.pool.read { db in
            for column in ["id", "pairing_id", "call_id"] {
                if let row = try Row.fetchOne(
                    db,
                    sql: "SELECT id, record FROM call_records WHERE \(column) = ? ORDER BY started_at DESC, id DESC LIMIT 1",
                    arguments: [key])
                {
                    return try CallRecordRow.decoded(row["record"], id: row["id"])
                }
            }
            return nil
        }
    }

    // MARK: - Rows

    static func upsert(_ row: CallRecordRow, in db: Database) throws {
        // Every column is written, so REPLACE is the whole upsert (the table
        // has no triggers and nothing references it). Cached: compiled once
        // per connection, not per save.
        try db.cachedStatement(
            sql: """
                INSERT OR REPLACE INTO call_records (
                    id, pairing_id, call_id, callee, caller, started_at, ended_at, outcome, final_status, record)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(
            arguments: [row.id, row.pairingID, row.callID, row.callee, row.caller, row.startedAt, row.endedAt,
                        row.outcome, row.finalStatus, row.record])
    }

    /// WHERE clause and arguments for the list filters.
    private static func filter(callee: String?, outcome: CallOutcome?) -> (sql: String, arguments: StatementArguments) {
        var clauses: [String] = []
        var arguments: StatementArguments = []
        if let callee {
            clauses.append("callee = ?")
            arguments += [callee.lowercased()]
        }
        if let outcome {
            clauses.append("outcome = ?")
            arguments += [outcome.rawValue]
        }
        return (clauses.isEmpty ? "" : " WHERE " + clauses.joined(separator: " AND "), arguments)
    }
}
