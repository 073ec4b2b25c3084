import Config
import Logging
import Ports
import PostgreSQLStorage
import SQLiteStorage
import StorageSupport
import Synchronization

/// The database `[database]` names, opened: SQLite (`path`, the default) or
/// PostgreSQL (`url`). The one place that picks the adapter: `serve` and
/// every CLI command that reads or writes the database open it here and
/// name only the ports after that.
public final class SipwakeStorage: Sendable {
    /// The stores, whichever database holds them.
    public let stores: Stores
    /// What logs and errors call the database: `sqlite PATH` or
    /// `postgresql HOST:PORT/DATABASE` (never a user or a password).
    public let name: String
    private let adapter: Adapter
    /// The PostgreSQL change heads made, stopped at `close()`.
    private let heads = Mutex<[PostgreSQLTupleChangeHead]>([])

    private enum Adapter: Sendable {
        case sqlite(SipwakeDatabase)
        case postgresql(PostgreSQLDatabase)
    }

    /// Opens the database `section` names and brings its schema up to date.
    /// - Throws: the adapter's error (its description names the database,
    ///   never the password).
    public static func open(_ section: DatabaseSection, logger: Logger) throws -> SipwakeStorage {
        if let url = section.url {
            let location = PostgreSQLLocation(host: url.host, port: url.port, username: url.username,
                                              password: url.password, database: url.database)
            return SipwakeStorage(postgresql: try PostgreSQLDatabase(location: location, logger: logger))
        }
        return SipwakeStorage(sqlite: try SipwakeDatabase(path: section.path))
    }

    public init(sqlite database: SipwakeDatabase) {
        adapter = .sqlite(database)
        stores = database.stores
        name = "sqlite \(database.path)"
    }

    public init(postgresql database: PostgreSQLDatabase) {
        adapter = .postgresql(database)
        stores = database.stores
        name = "postgresql \(database.location)"
    }

    /// The group-commit journal of the bindings; its thread starts with `start()`.
    func bindingJournal(maxBatch: Int, logger: Logger, observe: WriterBatchObserver?) -> BindingWriter {
        switch adapter {
        case .sqlite(let database):
            return BindingWriter(store: BindingStore(database: database), logger: logger, maxBatch: maxBatch,
                                 observe: observe)
        case .postgresql(let database):
            return BindingWriter(store: PostgreSQLBindingStore(database: database), logger: logger,
                                 maxBatch: maxBatch, observe: observe)
        }
    }

    /// The call-record writer; its thread starts with `start()`.
    func callRecordSink(logger: Logger, observe: WriterBatchObserver?) -> CallRecordWriter {
        switch adapter {
        case .sqlite(let database):
            return CallRecordWriter(store: CallRecordStore(database: database), logger: logger, observe: observe)
        case .postgresql(let database):
            return CallRecordWriter(store: PostgreSQLCallRecordStore(database: database), logger: logger,
                                    observe: observe)
        }
    }

    /// The tuple feed's head, answered at once on the SIP loop.
    func tupleChangeHead(logger: Logger) throws -> any TupleChangeHead {
        switch adapter {
        case .sqlite(let database):
            return try SQLiteTupleChangeHead(database: database)
        case .postgresql(let database):
            let head = PostgreSQLTupleChangeHead(database: database, logger: logger)
            heads.withLock { $0.append(head) }
            return head
        }
    }

    /// Closes the database (SQLite: checkpoint and close; PostgreSQL: the
    /// change heads' threads and the connections). Idempotent.
    public func close() throws {
        for head in heads.withLock({ $0 }) { head.stop() }
        switch adapter {
        case .sqlite(let database): try database.close()
        case .postgresql(let database): database.close()
        }
    }
}
