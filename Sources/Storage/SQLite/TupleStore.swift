import Foundation
import GRDB
import Model
import Ports
import StorageSupport

/// The device tuples reported by the apps (Push Token Reporter), removed on
/// logout (Account Removal Reporter), and managed by the operator.
///
/// Rules every write keeps, each in one transaction:
/// - every argument is validated before the transaction starts, so invalid
///   input writes nothing;
/// - one row per (username, selector);
/// - one row per (token, selector) and per (token, user): writing a row
///   deletes every other row that holds one of its tokens (in either pair)
///   with the same selector (the account slot changed account) or the same
///   user (the user's slot was set up again). The same token with another
///   user and another selector is a second account on the same device, and
///   is kept: both accounts' calls wake that device, each with its selector.
public struct TupleStore: TupleRepository {
    private let database: SipwakeDatabase

    public init(database: SipwakeDatabase) {
        self.database = database
    }

    // MARK: - Reporters

    /// The Push Token Reporter's upsert. A report of an existing (username,
    /// selector) replaces both pairs (a pair not reported is cleared: the
    /// report is the app's current state) and sets `lastSeenAt`; a `nil`
    /// platform keeps the one already known, and so does a `nil` provider (a
    /// new tuple then gets `acrobits`); the reporter passes the provider that
    /// reaches the reported app. A report of a new selector adds
    /// a row: several devices per user are all kept. Rows holding one of the
    /// reported tokens with the same selector or the same user are deleted
    /// (the move rule above); other accounts on the same device are kept.
    /// - Throws: `invalidUsername`, `invalidField`, `userNotFound`; nothing is written then.
    @discardableResult
    public func report(
        username: String, selector: String,
        appIDCalls: String?, tokenCalls: String?, appIDOther: String?, tokenOther: String?,
        platform: DevicePlatform?, provider: String? = nil, now: Date = Date()
    ) throws -> (tuple: DeviceTuple, created: Bool) {
        let fields = try TupleFields.validate(
            username: username, selector: selector, appIDCalls: appIDCalls, tokenCalls: tokenCalls,
            appIDOther: appIDOther, tokenOther: tokenOther, platform: platform, provider: provider)
        let time = now.timeIntervalSince1970
        return try database.pool.write { db in
            try Self.requireUser(db, fields.username)
            let existing = try Int64.fetchOne(
                db, sql: "SELECT id FROM device_tuples WHERE username = ? AND selector = ?",
                arguments: [fields.username, fields.selector])
            let id: Int64
            if let existing {
                try db.execute(
                    sql: """
                        UPDATE device_tuples
                        SET app_id_calls = ?, token_calls = ?, app_id_other = ?, token_other = ?,
                            platform = coalesce(?, platform), provider = coalesce(?, provider), last_seen_at = ?
                        WHERE id = ?
                        """,
                    arguments: [fields.appIDCalls, fields.tokenCalls, fields.appIDOther, fields.tokenOther,
                                fields.platform?.rawValue, fields.provider, time, existing])
                id = existing
            } else {
                id = try Self.insert(db, fields, createdAt: time, lastSeenAt: time)
            }
            try Self.deleteOtherHolders(db, of: fields.tokens, keeping: id)
            return (try Self.written(db, id: id), existing == nil)
        }
    }

    /// The Account Removal Reporter: deletes that device's tuple for that user.
    /// Idempotent: `false` when there was none.
    /// - Throws: `invalidUsername`, `invalidField` (selector).
    @discardableResult
    public func remove(username: String, selector: String) throws -> Bool {
        let name = try UserStore.normalizedUsername(username)
        try TupleFields.check(selector, name: "selector", length: TupleFields.selectorLength)
        return try database.pool.write { db in
            try db.execute(
                sql: "DELETE FROM device_tuples WHERE username = ? AND selector = ?", arguments: [name, selector])
            return db.changesCount > 0
        }
    }

    // MARK: - Reading

    /// Tuples ordered by id, all users or one; an invalid username has none.
    /// - Throws: `invalidField` for a negative limit or offset.
    public func list(username: String? = nil, limit: Int = 100, offset: Int = 0) throws -> [DeviceTuple] {
        guard limit >= 0 else { throw StorageError.invalidField(name: "limit", reason: "must not be negative") }
        guard offset >= 0 else { throw StorageError.invalidField(name: "offset", reason: "must not be negative") }
        guard let filter = Self.filter(username) else { return [] }
        return try database.pool.read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM device_tuples\(filter.sql) ORDER BY id LIMIT ? OFFSET ?",
                arguments: filter.arguments + [limit, offset]
            ).map(Self.tuple)
        }
    }

    /// How many tuples, all users or one.
    public func count(username: String? = nil) throws -> Int {
        guard let filter = Self.filter(username) else { return 0 }
        return try database.pool.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM device_tuples\(filter.sql)", arguments: filter.arguments) ?? 0
        }
    }

    public func get(id: Int64) throws -> DeviceTuple? {
        try database.pool.read { db in try Self.fetch(db, id: id) }
    }

    // MARK: - Admin

    /// Adds a tuple (created and last seen `now`). Other rows holding one of
    /// its tokens are deleted, as for a report.
    /// - Throws: a validation error, `userNotFound`, `tupleExists`; nothing is written then.
    public func create(
        username: String, selector: String,
        appIDCalls: String?, tokenCalls: String?, appIDOther: String?, tokenOther: String?,
        platform: DevicePlatform?, provider: String = DeviceTuple.defaultProvider, now: Date = Date()
    ) throws -> DeviceTuple {
        let fields = try TupleFields.validate(
            username: username, selector: selector, appIDCalls: appIDCalls, tokenCalls: tokenCalls,
            appIDOther: appIDOther, tokenOther: tokenOther, platform: platform, provider: provider)
        let time = now.timeIntervalSince1970
        return try database.pool.write { db in
            try Self.requireUser(db, fields.username)
            try Self.requireFree(db, fields, except: nil)
            let id = try Self.insert(db, fields, createdAt: time, lastSeenAt: time)
            try Self.deleteOtherHolders(db, of: fields.tokens, keeping: id)
            return try Self.written(db, id: id)
        }
    }

    /// Replaces every writable field of tuple `id`, provider included (a
    /// `nil` platform clears it); times and the last push result are kept. Other rows holding one
    /// of its tokens are deleted.
    /// - Throws: a validation error, `tupleNotFound`, `userNotFound`, `tupleExists`
    ///   (another row has that username and selector); nothing is written then.
    public func update(
        id: Int64, username: String, selector: String,
        appIDCalls: String?, tokenCalls: String?, appIDOther: String?, tokenOther: String?,
        platform: DevicePlatform?, provider: String = DeviceTuple.defaultProvider
    ) throws -> DeviceTuple {
        let fields = try TupleFields.validate(
            username: username, selector: selector, appIDCalls: appIDCalls, tokenCalls: tokenCalls,
            appIDOther: appIDOther, tokenOther: tokenOther, platform: platform, provider: provider)
        return try database.pool.write { db in
            guard try Self.fetch(db, id: id) != nil else { throw StorageError.tupleNotFound(id: id) }
            try Self.requireUser(db, fields.username)
            try Self.requireFree(db, fields, except: id)
            try db.execute(
                sql: """
                    UPDATE device_tuples
                    SET username = ?, selector = ?, app_id_calls = ?, token_calls = ?,
                        app_id_other = ?, token_other = ?, platform = ?, provider = coalesce(?, provider)
                    WHERE id = ?
                    """,
                arguments: [fields.username, fields.selector, fields.appIDCalls, fields.tokenCalls,
                            fields.appIDOther, fields.tokenOther, fields.platform?.rawValue, fields.provider, id])
            try Self.deleteOtherHolders(db, of: fields.tokens, keeping: id)
            return try Self.written(db, id: id)
        }
    }

    /// `false` when there was no such tuple.
    @discardableResult
    public func delete(id: Int64) throws -> Bool {
        try delete(ids: [id]) == 1
    }

    /// Deletes every listed tuple in one transaction; ids not there are
    /// skipped. Returns how many were deleted.
    @discardableResult
    public func delete(ids: [Int64]) throws -> Int {
        let unique = Array(Set(ids))
        if unique.isEmpty { return 0 }
        return try database.pool.write { db in
            var deleted = 0
            // Chunks stay below SQLite's bound-parameter limit.
            for start in stride(from: 0, to: unique.count, by: 500) {
                let chunk = Array(unique[start..<min(start + 500, unique.count)])
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
                try db.execute(
                    sql: "DELETE FROM device_tuples WHERE id IN (\(marks))", arguments: StatementArguments(chunk))
                deleted += db.changesCount
            }
            return deleted
        }
    }

    /// Deletes all of a user's tuples; returns how many.
    /// - Throws: `invalidUsername`.
    @discardableResult
    public func deleteAll(username: String) throws -> Int {
        let name = try UserStore.normalizedUsername(username)
        return try database.pool.write { db in
            try db.execute(sql: "DELETE FROM device_tuples WHERE username = ?", arguments: [name])
            return db.changesCount
        }
    }

    /// Deletes the tuples last seen before `notSeenSince` (apps report at
    /// every start, and an uninstall sends no removal); returns how many.
    @discardableResult
    public func purge(notSeenSince: Date) throws -> Int {
        try database.pool.write { db in
            try db.execute(
                sql: "DELETE FROM device_tuples WHERE last_seen_at < ?",
                arguments: [notSeenSince.timeIntervalSince1970])
            return db.changesCount
        }
    }

    // MARK: - Change feed

    /// The users whose tuples changed after change `after`, read from the
    /// `device_tuple_changes` feed the triggers write (see
    /// `StorageMigrations.v5`), in one read transaction.
    /// - Throws: `invalidField` for a limit below 1.
    public func changes(after: Int64, limit: Int) throws -> TupleChanges {
        guard limit > 0 else { throw StorageError.invalidField(name: "limit", reason: "must be at least 1") }
        return try database.pool.read { db in
            let head = try Int64.fetchOne(
                db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'device_tuple_changes'") ?? 0
            let missed = TupleChanges(usernames: [], through: head, missed: true, more: false)
            if after == head { return TupleChanges(usernames: [], through: head, missed: false, more: false) }
            guard after >= 0, after < head else { return missed }
            let rows = try Row.fetchAll(
                db, sql: "SELECT seq, username FROM device_tuple_changes WHERE seq > ? ORDER BY seq LIMIT ?",
                arguments: [after, limit])
            // The feed has no gaps (one writer, rolled-back changes take no
            // number), so a first change other than the next one was pruned.
            guard let first: Int64 = rows.first?["seq"], first == after + 1,
                  let last: Int64 = rows.last?["seq"] else { return missed }
            return TupleChanges(usernames: Set(rows.map { $0["username"] as String }), through: last,
                                missed: false, more: last < head)
        }
    }

    // MARK: - Push delivery

    /// Records the outcome of a push to tuple `id`: when, the gateway's HTTP
    /// status (nil when none came, e.g. a timeout) and a short result
    /// (`"ok"`, the gateway's reason, an error).
    /// - Throws: `invalidField` (result: 0...1024 characters, no control
    ///   characters), `tupleNotFound`.
    public func recordPushResult(id: Int64, sentAt: Date?, at: Date, status: Int?, result: String) throws {
        try TupleFields.check(result, name: "result", length: 0...1024)
        try database.pool.write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM device_tuples WHERE id = ?", arguments: [id]) != nil else {
                throw StorageError.tupleNotFound(id: id)
            }
            try Self.writePushResult(db, id: id, at: at.timeIntervalSince1970, sentAt: sentAt?.timeIntervalSince1970,
                                     status: status, result: result)
        }
    }

    /// Writes a push answer on tuple `id`, unless the tuple already holds a
    /// later one (answers of concurrent calls arrive in any order) or was
    /// created after the push was sent (the id was reused by a new device
    /// after the old tuple was deleted). A tuple that is gone is skipped.
    static func writePushResult(_ db: Database, id: Int64, at: Double, sentAt: Double?, status: Int?,
                                result: String) throws {
        try db.cachedStatement(sql: """
            UPDATE device_tuples SET last_push_at = ?, last_push_status = ?, last_push_result = ?
            WHERE id = ? AND (last_push_at IS NULL OR last_push_at <= ?) AND (? IS NULL OR created_at <= ?)
            """).execute(arguments: [at, status, String(result.prefix(1024)), id, at, sentAt, sentAt])
    }

    // MARK: - Rows

    private static func requireUser(_ db: Database, _ username: String) throws {
        guard try Bool.fetchOne(db, sql: "SELECT 1 FROM users WHERE username = ?", arguments: [username]) != nil else {
            throw StorageError.userNotFound(username)
        }
    }

    private static func requireFree(_ db: Database, _ fields: TupleFields, except id: Int64?) throws {
        let holder = try Int64.fetchOne(
            db, sql: "SELECT id FROM device_tuples WHERE username = ? AND selector = ?",
            arguments: [fields.username, fields.selector])
        if let holder, holder != id {
            throw StorageError.tupleExists(username: fields.username, selector: fields.selector)
        }
    }

    private static func insert(_ db: Database, _ fields: TupleFields, createdAt: Double, lastSeenAt: Double) throws -> Int64 {
        try db.execute(
            sql: """
                INSERT INTO device_tuples
                    (username, selector, app_id_calls, token_calls, app_id_other, token_other, platform,
                     provider, created_at, last_seen_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [fields.username, fields.selector, fields.appIDCalls, fields.tokenCalls,
                        fields.appIDOther, fields.tokenOther, fields.platform?.rawValue,
                        fields.provider ?? DeviceTuple.defaultProvider, createdAt, lastSeenAt])
        return db.lastInsertedRowID
    }

    /// The move rule: one row per (token, selector), and one per (token,
    /// user). Another row holding one of the tokens goes when it has the
    /// same selector (the account slot on the device changed account) or the
    /// same user (the user's slot on the device was set up again). A row of
    /// another user with another selector is another account on the same
    /// device, and stays.
    private static func deleteOtherHolders(_ db: Database, of tokens: [String], keeping id: Int64) throws {
        for token in Set(tokens) {
            try db.execute(
                sql: """
                    DELETE FROM device_tuples
                    WHERE id <> ? AND (token_calls = ? OR token_other = ?)
                      AND (selector = (SELECT selector FROM device_tuples WHERE id = ?)
                           OR username = (SELECT username FROM device_tuples WHERE id = ?))
                    """,
                arguments: [id, token, token, id, id])
        }
    }

    /// A WHERE clause for an optional username filter; nil when the username
    /// is invalid (so no row can match).
    private static func filter(_ username: String?) -> (sql: String, arguments: StatementArguments)? {
        guard let username else { return ("", []) }
        guard let name = try? UserStore.normalizedUsername(username) else { return nil }
        return (" WHERE username = ?", [name])
    }

    /// Reads back the row just written in this transaction, so callers get
    /// exactly what `get` returns.
    private static func written(_ db: Database, id: Int64) throws -> DeviceTuple {
        guard let tuple = try fetch(db, id: id) else { throw StorageError.tupleNotFound(id: id) }
        return tuple
    }

    private static func fetch(_ db: Database, id: Int64) throws -> DeviceTuple? {
        try Row.fetchOne(db, sql: "SELECT * FROM device_tuples WHERE id = ?", arguments: [id]).map(tuple)
    }

    private static func tuple(_ row: Row) throws -> DeviceTuple {
        var platform: DevicePlatform?
        if let raw: String = row["platform"] {
            guard let known = DevicePlatform(rawValue: raw) else {
                throw StorageError.corruptRow(table: "device_tuples", detail: "unknown platform '\(raw)'")
            }
            platform = known
        }
        let lastPushAt: Double? = row["last_push_at"]
        return DeviceTuple(
            id: row["id"], username: row["username"], selector: row["selector"],
            appIDCalls: row["app_id_calls"], tokenCalls: row["token_calls"],
            appIDOther: row["app_id_other"], tokenOther: row["token_other"],
            platform: platform, provider: row["provider"],
            createdAt: Date(timeIntervalSince1970: row["created_at"]),
            lastSeenAt: Date(timeIntervalSince1970: row["last_seen_at"]),
            lastPushAt: lastPushAt.map(Date.init(timeIntervalSince1970:)),
            lastPushStatus: row["last_push_status"], lastPushResult: row["last_push_result"])
    }
}
