import Foundation
import Logging
import PostgreSQLStorage
import TestSupport

/// A new database of the test PostgreSQL cluster for several sipwake nodes
/// to share (docs/storage.md): its `[database]` section for the nodes'
/// config, and the test's own connection to it, through which a test writes
/// what an app's report or the API would (device tuples) and reads the rows.
/// The connection migrates the schema, so rows can be written before any
/// node starts.
final class SharedTestDatabase {
    let url: String
    let database: PostgreSQLDatabase

    init() throws {
        let cluster = try PostgreSQLTestCluster.shared()
        let name = try cluster.makeDatabase()
        url = cluster.url(database: name)
        database = try PostgreSQLDatabase(
            location: PostgreSQLLocation(host: cluster.host, port: cluster.port, username: PostgreSQLTestCluster.username,
                                         password: PostgreSQLTestCluster.password, database: name),
            logger: Logger(label: "shared-test-database"))
    }

    deinit {
        database.close()
    }

    /// The nodes' `[database]` section.
    var config: String {
        """
        [database]
        url = "\(url)"
        """
    }
}
