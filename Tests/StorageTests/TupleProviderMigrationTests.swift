import Foundation
import GRDB
@testable import SQLiteStorage
import Testing

/// A file written by the schema before tuples had a provider.
@Suite struct TupleProviderMigrationTests {
    @Test func tuplesStoredBeforeTheProviderColumnArePushedThroughAcrobits() throws {
        let file = TemporaryDatabaseFile()
        defer { file.remove() }
        try file.writeOldSchema(upTo: StorageMigrations.v3, selectors: ["s1", "s2"])

        let database = try SipwakeDatabase(path: file.path)
        defer { try? database.close() }
        #expect(database.schemaVersion == StorageMigrations.v6)
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
