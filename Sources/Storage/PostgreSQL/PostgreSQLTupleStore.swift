import Foundation
import Model
import Ports
import PostgresNIO
import StorageSupport

/// The device tuples on PostgreSQL, with every rule of `TupleRepository`
/// (validated before the transaction, one per (username, selector), the
/// move rule), each write in one transaction; the change feed is written by
/// a trigger (`PostgreSQLMigrations.v2`).
public struct PostgreSQLTupleStore: TupleRepository {
    private let database: PostgreSQLDatabase

    public init(database: PostgreSQLDatabase) {
        self.database = database
    }

    // MARK: - Reporters

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
        return try database.write { db in
            // The user's row is locked, so a removal on another node waits
            // for this report instead of racing its foreign key.
            try Self.requireUser(db, fields.username)
            let existing = try db.value("""
                SELECT id FROM device_tuples WHERE username = \(fields.username) AND selector = \(fields.selector)
                FOR UPDATE
                """, as: Int64.self)
            let id: Int64
            if let existing {
                try db.execute("""
                    UPDATE device_tuples
                    SET app_id_calls = \(fields.appIDCalls), token_calls = \(fields.tokenCalls),
                        app_id_other = \(fields.appIDOther), token_other = \(fields.tokenOther),
                        platform = coalesce(\(fields.platform?.rawValue), platform),
                        provider = coalesce(\(fields.provider), provider), last_seen_at = \(time)
                    WHERE id = \(existing)
                    """)
                id = existing
            } else {
                id = try Self.insert(db, fields, createdAt: time, lastSeenAt: time)
            }
            try Self.deleteOtherHolders(db, of: fields.tokens, keeping: id)
            return (try Self.written(db, id: id), existing == nil)
        }
    }

    @discardableResult
    public func remove(username: String, selector: String) throws -> Bool {
        let name = try UserFields.normalizedUsername(username)
        try TupleFields.check(selector, name: "selector", length: TupleFields.selectorLength)
        return try database.write { db in
            try db.execute("DELETE FROM device_tuples WHERE username = \(name) AND selector = \(selector)") > 0
        }
    }

    // MARK: - Reading

    public func list(username: String? = nil, limit: Int = 100, offset: Int = 0) throws -> [DeviceTuple] {
        guard limit >= 0 else { throw StorageError.invalidField(name: "limit", reason: "must not be negative") }
        guard offset >= 0 else { throw StorageError.invalidField(name: "offset", reason: "must not be negative") }
        guard let filter = Self.filter(username) else { return [] }
        return try database.read { db in
            let rows: [PostgresRandomAccessRow]
            if let name = filter {
                rows = try db.rows("""
                    SELECT * FROM device_tuples WHERE username = \(name) ORDER BY id
                    LIMIT \(Int64(limit)) OFFSET \(Int64(offset))
                    """)
            } else {
                rows = try db.rows(
                    "SELECT * FROM device_tuples ORDER BY id LIMIT \(Int64(limit)) OFFSET \(Int64(offset))")
            }
            return try rows.map(Self.tuple)
        }
    }

    public func count(username: String? = nil) throws -> Int {
        guard let filter = Self.filter(username) else { return 0 }
        return try database.read { db in
            let count: Int64?
            if let name = filter {
                count = try db.value("SELECT count(*) FROM device_tuples WHERE username = \(name)", as: Int64.self)
            } else {
                count = try db.value("SELECT count(*) FROM device_tuples", as: Int64.self)
            }
            return Int(count ?? 0)
        }
    }

    public func get(id: Int64) throws -> DeviceTuple? {
        try database.read { db in try Self.fetch(db, id: id) }
    }

    // MARK: - Admin

    public func create(
        username: String, selector: String,
        appIDCalls: String?, tokenCalls: String?, appIDOther: String?, tokenOther: String?,
        platform: DevicePlatform?, provider: String = DeviceTuple.defaultProvider, now: Date = Date()
    ) throws -> DeviceTuple {
        let fields = try TupleFields.validate(
            username: username, selector: selector, appIDCalls: appIDCalls, tokenCalls: tokenCalls,
            appIDOther: appIDOther, tokenOther: tokenOther, platform: platform, provider: provider)
        let time = now.timeIntervalSince1970
        return try database.write { db in
            try Self.requireUser(db, fields.username)
            try Self.requireFree(db, fields, except: nil)
            let id = try Self.insert(db, fields, createdAt: time, lastSeenAt: time)
            try Self.deleteOtherHolders(db, of: fields.tokens, keeping: id)
            return try Self.written(db, id: id)
        }
    }

    public func update(
        id: Int64, username: String, selector: String,
        appIDCalls: String?, tokenCalls: String?, appIDOther: String?, tokenOther: String?,
        platform: DevicePlatform?, provider: String = DeviceTuple.defaultProvider
    ) throws -> DeviceTuple {
        let fields = try TupleFields.validate(
            username: username, selector: selector, appIDCalls: appIDCalls, tokenCalls: tokenCalls,
            appIDOther: appIDOther, tokenOther: tokenOther, platform: platform, provider: provider)
        return try database.write { db in
            guard try db.value("SELECT 1 FROM device_tuples WHERE id = \(id) FOR UPDATE", as: Int32.self) != nil else {
                throw StorageError.tupleNotFound(id: id)
            }
            try Self.requireUser(db, fields.username)
            try Self.requireFree(db, fields, except: id)
            try db.execute("""
                UPDATE device_tuples
                SET username = \(fields.username), selector = \(fields.selector),
                    app_id_calls = \(fields.appIDCalls), token_calls = \(fields.tokenCalls),
                    app_id_other = \(fields.appIDOther), token_other = \(fields.tokenOther),
                    platform = \(fields.platform?.rawValue), provider = coalesce(\(fields.provider), provider)
                WHERE id = \(id)
                """)
            try Self.deleteOtherHolders(db, of: fields.tokens, keeping: id)
            return try Self.written(db, id: id)
        }
    }

    @discardableResult
    public func delete(id: Int64) throws -> Bool {
        try delete(ids: [id]) == 1
    }

    @discardableResult
    public func delete(ids: [Int64]) throws -> Int {
        let unique = Array(Set(ids))
        if unique.isEmpty { return 0 }
        return try database.write { db in
            try db.execute("DELETE FROM device_tuples WHERE id = ANY(\(unique))")
        }
    }

    @discardableResult
    public func deleteAll(username: String) throws -> Int {
        let name = try UserFields.normalizedUsername(username)
        return try database.write { db in
            try db.execute("DELETE FROM device_tuples WHERE username = \(name)")
        }
    }

    @discardableResult
    public func purge(notSeenSince: Date) throws -> Int {
        try database.write { db in
            try db.execute("DELETE FROM device_tuples WHERE last_seen_at < \(notSeenSince.timeIntervalSince1970)")
        }
    }

    // MARK: - Change feed

    /// The users whose tuples changed after change `after`, from one
    /// snapshot of the feed and its head.
    public func changes(after: Int64, limit: Int) throws -> TupleChanges {
        guard limit > 0 else { throw StorageError.invalidField(name: "limit", reason: "must be at least 1") }
        return try database.snapshot { db in
            let head = try Self.head(db)
            let missed = TupleChanges(usernames: [], through: head, missed: true, more: false)
            if after == head { return TupleChanges(usernames: [], through: head, missed: false, more: false) }
            guard after >= 0, after < head else { return missed }
            let rows = try db.rows("""
                SELECT seq, username FROM device_tuple_changes WHERE seq > \(after) ORDER BY seq LIMIT \(Int64(limit))
                """)
            // The feed has no gaps (`feed_heads` numbers it in commit
            // order), so a first change other than the next one was pruned.
            guard let first = try rows.first?.column("seq", in: "device_tuple_changes", as: Int64.self),
                  first == after + 1,
                  let last = try rows.last?.column("seq", in: "device_tuple_changes", as: Int64.self) else {
                return missed
            }
            let usernames = try rows.map { try $0.column("username", in: "device_tuple_changes", as: String.self) }
            return TupleChanges(usernames: Set(usernames), through: last, missed: false, more: last < head)
        }
    }

    /// The feed's latest change, 0 before the first.
    static func head(_ db: PostgreSQLSession) throws -> Int64 {
        try db.value("SELECT seq FROM feed_heads WHERE feed = 'device_tuple_changes'", as: Int64.self) ?? 0
    }

    // MARK: - Push delivery

    public func recordPushResult(id: Int64, sentAt: Date?, at: Date, status: Int?, result: String) throws {
        try TupleFields.check(result, name: "result", length: 0...1024)
        try database.write { db in
            guard try db.value("SELECT 1 FROM device_tuples WHERE id = \(id)", as: Int32.self) != nil else {
                throw StorageError.tupleNotFound(id: id)
            }
            try db.execute(Self.pushResult(id: id, at: at.timeIntervalSince1970,
                                           sentAt: sentAt?.timeIntervalSince1970, status: status, result: result))
        }
    }

    /// Writes a push answer on tuple `id`, unless the tuple holds a later
    /// one or was created after the push was sent; a tuple gone is skipped.
    static func pushResult(id: Int64, at: Double, sentAt: Double?, status: Int?, result: String) -> PostgresQuery {
        let status = status.map(Int64.init)
        return """
            UPDATE device_tuples
            SET last_push_at = \(at), last_push_status = \(status), last_push_result = \(String(result.prefix(1024)))
            WHERE id = \(id) AND (last_push_at IS NULL OR last_push_at <= \(at))
              AND (\(sentAt)::double precision IS NULL OR created_at <= \(sentAt))
            """
    }

    // MARK: - Rows

    private static func requireUser(_ db: PostgreSQLSession, _ username: String) throws {
        guard try db.value("SELECT 1 FROM users WHERE username = \(username) FOR SHARE", as: Int32.self) != nil else {
            throw StorageError.userNotFound(username)
        }
    }

    private static func requireFree(_ db: PostgreSQLSession, _ fields: TupleFields, except id: Int64?) throws {
        let holder = try db.value("""
            SELECT id FROM device_tuples WHERE username = \(fields.username) AND selector = \(fields.selector)
            """, as: Int64.self)
        if let holder, holder != id {
            throw StorageError.tupleExists(username: fields.username, selector: fields.selector)
        }
    }

    private static func insert(_ db: PostgreSQLSession, _ fields: TupleFields, createdAt: Double,
                               lastSeenAt: Double) throws -> Int64 {
        let id = try db.value("""
            INSERT INTO device_tuples
                (username, selector, app_id_calls, token_calls, app_id_other, token_other, platform,
                 provider, created_at, last_seen_at)
            VALUES (\(fields.username), \(fields.selector), \(fields.appIDCalls), \(fields.tokenCalls),
                    \(fields.appIDOther), \(fields.tokenOther), \(fields.platform?.rawValue),
                    \(fields.provider ?? DeviceTuple.defaultProvider), \(createdAt), \(lastSeenAt))
            RETURNING id
            """, as: Int64.self)
        guard let id else { throw StorageError.corruptRow(table: "device_tuples", detail: "no id returned") }
        return id
    }

    /// The move rule, as in the SQLite adapter.
    private static func deleteOtherHolders(_ db: PostgreSQLSession, of tokens: [String], keeping id: Int64) throws {
        for token in Set(tokens) {
            try db.execute("""
                DELETE FROM device_tuples
                WHERE id <> \(id) AND (token_calls = \(token) OR token_other = \(token))
                  AND (selector = (SELECT selector FROM device_tuples WHERE id = \(id))
                       OR username = (SELECT username FROM device_tuples WHERE id = \(id)))
                """)
        }
    }

    /// The username to filter on: `.some(nil)` for all users, nil when the
    /// username is invalid (so no row can match).
    private static func filter(_ username: String?) -> String?? {
        guard let username else { return .some(nil) }
        guard let name = try? UserFields.normalizedUsername(username) else { return nil }
        return .some(name)
    }

    private static func written(_ db: PostgreSQLSession, id: Int64) throws -> DeviceTuple {
        guard let tuple = try fetch(db, id: id) else { throw StorageError.tupleNotFound(id: id) }
        return tuple
    }

    private static func fetch(_ db: PostgreSQLSession, id: Int64) throws -> DeviceTuple? {
        try db.rows("SELECT * FROM device_tuples WHERE id = \(id)").first.map(tuple)
    }

    private static func tuple(_ row: PostgresRandomAccessRow) throws -> DeviceTuple {
        let table = "device_tuples"
        var platform: DevicePlatform?
        if let raw = try row.column("platform", in: table, as: String?.self) {
            guard let known = DevicePlatform(rawValue: raw) else {
                throw StorageError.corruptRow(table: table, detail: "unknown platform '\(raw)'")
            }
            platform = known
        }
        let lastPushAt = try row.column("last_push_at", in: table, as: Double?.self)
        let lastPushStatus = try row.column("last_push_status", in: table, as: Int64?.self)
        return DeviceTuple(
            id: try row.column("id", in: table), username: try row.column("username", in: table),
            selector: try row.column("selector", in: table),
            appIDCalls: try row.column("app_id_calls", in: table), tokenCalls: try row.column("token_calls", in: table),
            appIDOther: try row.column("app_id_other", in: table), tokenOther: try row.column("token_other", in: table),
            platform: platform, provider: try row.column("provider", in: table),
            createdAt: Date(timeIntervalSince1970: try row.column("created_at", in: table)),
            lastSeenAt: Date(timeIntervalSince1970: try row.column("last_seen_at", in: table)),
            lastPushAt: lastPushAt.map(Date.init(timeIntervalSince1970:)),
            lastPushStatus: lastPushStatus.map(Int.init), lastPushResult: try row.column("last_push_result", in: table))
    }
}
