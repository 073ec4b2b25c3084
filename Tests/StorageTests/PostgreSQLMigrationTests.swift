import Logging
@testable import PostgreSQLStorage
import TestSupport
import Testing

/// The PostgreSQL schema's migrations: applied once, recorded, and a second
/// open (another node, a restart) changes nothing.
@Suite struct PostgreSQLMigrationTests {
    @Test func openingTwiceAppliesEachMigrationOnce() throws {
        let cluster = try PostgreSQLTestCluster.shared()
        let name = try cluster.makeDatabase()
        let location = PostgreSQLLocation(host: cluster.host, port: cluster.port, username: PostgreSQLTestCluster.username,
                                          password: PostgreSQLTestCluster.password, database: name)
        let first = try PostgreSQLDatabase(location: location, logger: Logger(label: "test"))
        _ = try first.stores.users.add(username: "alice", realm: "r", ha1MD5: String(repeating: "a", count: 32),
                                       ha1SHA256: String(repeating: "b", count: 64))
        let second = try PostgreSQLDatabase(location: location, logger: Logger(label: "test"))
        defer {
            first.close()
            second.close()
        }
        #expect(first.schemaVersion == PostgreSQLMigrations.all.last?.id)
        #expect(second.schemaVersion == PostgreSQLMigrations.all.last?.id)
        let applied = try second.read { db in
            try db.rows("SELECT id FROM schema_migrations ORDER BY id").map { try $0.column("id", in: "schema_migrations", as: String.self) }
        }
        #expect(applied == PostgreSQLMigrations.all.map(\.id))
        #expect(try second.stores.users.list().map(\.username) == ["alice"], "the rows written before stay")
    }

    @Test func aWrongPasswordIsRefusedWithoutShowingIt() throws {
        let cluster = try PostgreSQLTestCluster.shared()
        let location = PostgreSQLLocation(host: cluster.host, port: cluster.port, username: PostgreSQLTestCluster.username,
                                          password: "not-the-Password-42", database: "postgres")
        do {
            _ = try PostgreSQLDatabase(location: location, logger: Logger(label: "test"))
            Issue.record("opened with a wrong password")
        } catch {
            let text = "\(error)"
            #expect(text.contains("127.0.0.1:\(cluster.port)/postgres"), "\(text)")
            #expect(!text.contains("not-the-Password-42"))
        }
    }
}
