import Foundation
import GRDB
@testable import SQLiteStorage
import Testing

/// A file written by the schema before tuples had a provider.
@Suite struct TupleProviderMigrationTests {
    @Test func tuplesStoredBeforeTheProviderColumnArePushedThroughAcrobits() throws {
        let file = TemporaryDatabaseFile()
        defer { file.remove() }
        try FileManager.default.createDirectory(at: file.directory, withIntermediateDirectories: true)
        let old = try DatabaseQueue(path: file.path)
        try StorageMigrations.migrator.migrate(old, upTo: StorageMigrations.v3)
        try old.write { db in
            try db.execute(sql: """
                INSERT INTO users (username, realm, ha1_md5, ha1_sha256, wakeup_hold, created_at, updated_at)
                VALUES ('alice', 'r', ?, ?, 1, 0, 0)
                """, arguments: [String(repeating: "a", count: 32), String(repeating: "b", count: 64)])
            try db.execute(sql: """
                INSERT INTO device_tuples (username, selector, app_id_calls, token_calls, created_at, last_seen_at)
                VALUES ('alice', 's1', 'app', 't1', 0, 0), ('alice', 's2', 'app', 't2', 0, 0)
                """)
        }
        try old.close()

        let database = try SipwakeDatabase(path: file.path)
        defer { try? database.close() }
        #expect(database.schemaVersion == StorageMigrations.v4)
        let tuples = try database.stores.tuples.list(username: nil, limit: 10, offset: 0)
        #expect(tuples.map(\.selector) == ["s1", "s2"])
        #expect(tuples.map(\.provider) == ["acrobits", "acrobits"])
        try database.pool.write { db in
            #expect(throws: DatabaseError.self, "the column refuses what cannot name a provider") {
                try db.execute(sql: "UPDATE device_tuples SET provider = 'Not-Valid' WHERE selector = 's1'")
            }
        }
    }
}
