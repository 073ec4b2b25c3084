import Foundation
import GRDB
import Registrar
import SQLiteStorage
import XCTest

final class SipwakeDatabaseTests: XCTestCase {
    func testFreshFileGetsTheV5SchemaInANewDirectory() throws {
        let path = try TestDatabase.makePath(self)
        XCTAssertFalse(FileManager.default.fileExists(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path))

        let database = try SipwakeDatabase(path: path)
        defer { try? database.close() }

        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
        XCTAssertEqual(database.schemaVersion, "v6-binding-deletions")
        try database.pool.read { db in
            XCTAssertEqual(
                try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"),
                ["v1-users-bindings", "v2-device-tuples", "v3-call-records", "v4-tuple-provider",
                 "v5-tuple-changes", "v6-binding-deletions"])
            XCTAssertEqual(
                try db.columns(in: "users").map(\.name),
                ["username", "realm", "ha1_md5", "ha1_sha256", "wakeup_hold", "created_at", "updated_at"])
            XCTAssertEqual(
                try db.columns(in: "bindings").map(\.name),
                ["id", "aor", "binding_key", "contact", "instance_id", "reg_id", "call_id", "cseq", "q",
                 "expires_at", "path", "transport", "source_host", "source_port", "user_agent",
                 "registered_at", "updated_at"])
            XCTAssertEqual(try db.primaryKey("users").columns, ["username"])
            XCTAssertEqual(try db.primaryKey("bindings").columns, ["id"])
            XCTAssertEqual(try db.foreignKeys(on: "bindings").count, 0, "any AOR may register")
            let indexes = try db.indexes(on: "bindings")
            XCTAssertTrue(indexes.contains { $0.isUnique && $0.columns == ["aor", "binding_key"] })
            XCTAssertEqual(indexes.first { $0.name == "bindings_aor" }?.columns, ["aor", "updated_at"])
            XCTAssertEqual(indexes.first { $0.name == "bindings_expires_at" }?.columns, ["expires_at"])
            XCTAssertEqual(try Int64.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'users_version'"), 0)
            XCTAssertEqual(
                try db.columns(in: "device_tuples").map(\.name),
                ["id", "username", "selector", "app_id_calls", "token_calls", "app_id_other", "token_other",
                 "platform", "created_at", "last_seen_at", "last_push_at", "last_push_status", "last_push_result",
                 "provider"])
            XCTAssertEqual(try db.primaryKey("device_tuples").columns, ["id"])
            let keys = try db.foreignKeys(on: "device_tuples")
            XCTAssertEqual(keys.map(\.destinationTable), ["users"])
            XCTAssertEqual(keys.first?.mapping.map(\.origin), ["username"])
            let tupleIndexes = try db.indexes(on: "device_tuples")
            XCTAssertTrue(tupleIndexes.contains { $0.isUnique && $0.columns == ["username", "selector"] })
            XCTAssertEqual(tupleIndexes.first { $0.name == "device_tuples_username" }?.columns, ["username", "id"])
            XCTAssertEqual(tupleIndexes.first { $0.name == "device_tuples_token_calls" }?.columns, ["token_calls"])
            XCTAssertEqual(tupleIndexes.first { $0.name == "device_tuples_token_other" }?.columns, ["token_other"])
            XCTAssertEqual(tupleIndexes.first { $0.name == "device_tuples_last_seen_at" }?.columns, ["last_seen_at"])
        }
    }

    func testReopenRunsNoMigrationAgainAndKeepsData() throws {
        let path = try TestDatabase.makePath(self)
        let first = try SipwakeDatabase(path: path)
        try UserStore(database: first).add(
            username: "alice", realm: "sipwake", ha1MD5: String(repeating: "a", count: 32),
            ha1SHA256: String(repeating: "b", count: 64))
        try first.close()

        let second = try SipwakeDatabase(path: path)
        defer { try? second.close() }
        XCTAssertEqual(second.schemaVersion, "v6-binding-deletions")
        try second.pool.read { db in
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT count(*) FROM grdb_migrations"), 6)
            XCTAssertEqual(try Int64.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'users_version'"), 1)
        }
        XCTAssertEqual(try UserStore(database: second).list().map(\.username), ["alice"])
    }

    /// An older CLI opening a file a newer server migrated further.
    func testFileMigratedByANewerVersionStillOpens() throws {
        let path = try TestDatabase.makePath(self)
        let newer = try SipwakeDatabase(path: path)
        try newer.pool.write { db in
            try db.execute(sql: "CREATE TABLE future_things (id INTEGER PRIMARY KEY)")
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-future-things')")
        }
        try newer.close()

        let older = try SipwakeDatabase(path: path)
        defer { try? older.close() }
        XCTAssertEqual(older.schemaVersion, "v6-binding-deletions", "the last migration this build knows")
        XCTAssertEqual(try UserStore(database: older).usersVersion(), 0)
        try older.pool.read { db in
            XCTAssertTrue(try db.tableExists("future_things"), "untouched")
        }
    }

    func testPragmasAreSetOnWriterAndReaderConnections() throws {
        let database = try TestDatabase.open(self)
        func check(_ db: Database, _ role: String) throws {
            XCTAssertEqual(try String.fetchOne(db, sql: "PRAGMA journal_mode"), "wal", role)
            XCTAssertEqual(try Int.fetchOne(db, sql: "PRAGMA synchronous"), 2, "\(role): 2 is FULL")
            XCTAssertEqual(try Int.fetchOne(db, sql: "PRAGMA foreign_keys"), 1, role)
            XCTAssertEqual(try Int.fetchOne(db, sql: "PRAGMA busy_timeout"), 5000, role)
        }
        try database.pool.write { db in try check(db, "writer") }
        try database.pool.read { db in try check(db, "reader") }
    }

    func testCloseTruncatesTheWALAndIsIdempotent() throws {
        let path = try TestDatabase.makePath(self)
        let database = try SipwakeDatabase(path: path)
        try BindingStore(database: database).apply([.added(BindingFixture.instance())])
        let walPath = path + "-wal"
        let walSize = try FileManager.default.attributesOfItem(atPath: walPath)[.size] as? Int
        XCTAssertGreaterThan(walSize ?? 0, 0, "the write went to the WAL")

        try database.close()
        let sizeAfter = (try? FileManager.default.attributesOfItem(atPath: walPath)[.size] as? Int) ?? 0
        XCTAssertEqual(sizeAfter, 0, "checkpointed and truncated (or removed)")
        XCTAssertNoThrow(try database.close())
        XCTAssertThrowsError(try database.pool.read { db in try Int.fetchOne(db, sql: "SELECT 1") })

        let reopened = try SipwakeDatabase(path: path)
        defer { try? reopened.close() }
        XCTAssertEqual(try BindingStore(database: reopened).count(), 1)
    }

    /// The server and the CLI: two `SipwakeDatabase`s (two pools) on one file.
    func testSecondDatabaseOnTheSameFileSeesTheFirstsWrites() throws {
        let path = try TestDatabase.makePath(self)
        let server = try SipwakeDatabase(path: path)
        defer { try? server.close() }
        let cli = try SipwakeDatabase(path: path)
        defer { try? cli.close() }

        let serverUsers = UserStore(database: server)
        let versionBefore = try serverUsers.usersVersion()
        // Keep a reader of the server warm, as a running server would.
        XCTAssertNil(try serverUsers.find(username: "carol"))

        try UserStore(database: cli).add(
            username: "carol", realm: "sipwake", ha1MD5: String(repeating: "1", count: 32),
            ha1SHA256: String(repeating: "2", count: 64))
        XCTAssertEqual(try serverUsers.usersVersion(), versionBefore + 1)
        XCTAssertEqual(try serverUsers.find(username: "carol")?.realm, "sipwake")

        let binding = BindingFixture.instance(aor: "carol")
        try BindingStore(database: server).apply([.added(binding)])
        XCTAssertEqual(try BindingStore(database: cli).list(aor: "carol"), [BindingFixture.stored(binding)])

        try UserStore(database: cli).remove(username: "carol")
        XCTAssertNil(try serverUsers.find(username: "carol"))
        XCTAssertEqual(try BindingStore(database: server).list(aor: "carol"), [])
    }
}
