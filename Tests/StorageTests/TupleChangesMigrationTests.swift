import Foundation
import GRDB
@testable import SQLiteStorage
import Testing

/// A file written before the change feed existed: its tuples are all there
/// for a reader starting from scratch, and writes after the upgrade are fed.
@Suite struct TupleChangesMigrationTests {
    @Test func tuplesStoredBeforeTheFeedAreReadWholeAndLaterWritesAreFed() throws {
        let file = TemporaryDatabaseFile()
        defer { file.remove() }
        try file.writeOldSchema(upTo: StorageMigrations.v4, selectors: ["s1"])

        let database = try SipwakeDatabase(path: file.path)
        defer { try? database.close() }
        #expect(database.schemaVersion == StorageMigrations.v6)
        let tuples = database.stores.tuples
        let start = try tuples.changes(after: -1, limit: 10)
        #expect(start.missed && start.through == 0, "a reader from scratch reads every tuple")
        #expect(try SQLiteTupleChangeHead(database: database).latest() == 0)
        #expect(try tuples.changes(after: 0, limit: 10) == .init(usernames: [], through: 0, missed: false, more: false))
        #expect(try tuples.deleteAll(username: "alice") == 1)
        #expect(try tuples.changes(after: 0, limit: 10).usernames == ["alice"])
        #expect(try SQLiteTupleChangeHead(database: database).latest() == 1)
    }
}
