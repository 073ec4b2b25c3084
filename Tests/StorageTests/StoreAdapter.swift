import Foundation
import Logging
import PostgreSQLStorage
import SQLiteStorage
import TestSupport

/// The database adapters every port test runs against: the SQLite file
/// and a database of its own on the test PostgreSQL cluster.
enum StoreAdapter: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite
    case postgresql

    var description: String { rawValue }

    /// A fresh, empty database of this adapter; `close()` it when done.
    func open() throws -> OpenedStores {
        switch self {
        case .sqlite:
            let file = TemporaryDatabaseFile()
            let database = try SipwakeDatabase(path: file.path)
            return OpenedStores(
                adapter: self, stores: database.stores, bindingStore: BindingStore(database: database),
                callRecordStore: CallRecordStore(database: database),
                head: { try SQLiteTupleChangeHead(database: database) },
                close: {
                    try? database.close()
                    file.remove()
                })
        case .postgresql:
            let cluster = try PostgreSQLTestCluster.shared()
            let name = try cluster.makeDatabase()
            let database = try PostgreSQLDatabase(
                location: PostgreSQLLocation(host: cluster.host, port: cluster.port,
                                             username: PostgreSQLTestCluster.username,
                                             password: PostgreSQLTestCluster.password, database: name),
                logger: Logger(label: "sipwake.storage.tests"))
            return OpenedStores(
                adapter: self, stores: database.stores, bindingStore: PostgreSQLBindingStore(database: database),
                callRecordStore: PostgreSQLCallRecordStore(database: database),
                head: { PostgreSQLTupleChangeHead(database: database, logger: Logger(label: "sipwake.storage.tests")) },
                close: { database.close() }, postgresql: database)
        }
    }
}
