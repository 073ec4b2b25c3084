import Foundation
import Logging
import NIOCore
import PostgresNIO

/// The sipwake database on a PostgreSQL server, shared by several sipwake
/// nodes and their CLIs: connections on the adapter's own event loop
/// (`PostgreSQLConnections`), the schema brought up to date at open
/// (`PostgreSQLMigrations`), reads and transactions for the stores.
///
/// Durability: PostgreSQL's own (`synchronous_commit` on, its default): a
/// COMMIT returns once the WAL is flushed, so a binding's 200 OK, sent after
/// the journal's commit, survives a crash of the server.
public final class PostgreSQLDatabase: Sendable {
    /// Where it is; its `description` (host, port, database) is what logs show.
    public let location: PostgreSQLLocation
    /// Identifier of the last applied migration, e.g. "v2-feeds".
    public let schemaVersion: String
    /// This process's name in the binding event feed: random at each open,
    /// so a node's own events are told from the others'.
    public let node: String
    /// Every connection names its node to the server as `sipwake/<node>`
    /// (`application_name`, seen in `pg_stat_activity`): how the nodes tell
    /// which of them are running.
    static let applicationNamePrefix = "sipwake/"
    let connections: PostgreSQLConnections
    private let logger: Logger

    /// Connects, and applies the migrations not yet applied.
    /// - Parameter timeout: how long a connection attempt or a statement may take.
    /// - Throws: `PostgreSQLStorageError` (unreachable, refused: a wrong
    ///   password, a missing database, no right to create tables).
    public init(location: PostgreSQLLocation, logger: Logger, timeout: TimeAmount = .seconds(10)) throws {
        self.location = location
        self.logger = logger
        node = "node-" + UUID().uuidString.prefix(8).lowercased()
        let connections = PostgreSQLConnections(location: location, timeout: timeout,
                                                applicationName: Self.applicationNamePrefix + node, logger: logger)
        self.connections = connections
        do {
            schemaVersion = try PostgreSQLMigrations.migrate(connections, logger: logger)
        } catch {
            connections.close()
            throw error
        }
    }

    /// Runs `body` on one connection, each statement on its own (no
    /// transaction): for single-statement reads.
    func read<T>(_ body: (PostgreSQLSession) throws -> T) throws -> T {
        try connections.withConnection { connection in
            try body(PostgreSQLSession(connection: connection, connections: connections, logger: logger))
        }
    }

    /// Runs `body` in a read-only transaction that sees one snapshot: for
    /// reads of several statements that must agree.
    func snapshot<T>(_ body: (PostgreSQLSession) throws -> T) throws -> T {
        try transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
    }

    /// Runs `body` in ONE transaction: committed when it returns, rolled
    /// back when it throws (then nothing of it was written).
    func write<T>(_ body: (PostgreSQLSession) throws -> T) throws -> T {
        try transaction("BEGIN", body)
    }

    private func transaction<T>(_ begin: PostgresQuery, _ body: (PostgreSQLSession) throws -> T) throws -> T {
        try connections.withConnection { connection in
            let session = PostgreSQLSession(connection: connection, connections: connections, logger: logger)
            return try session.transaction(begin) { try body(session) }
        }
    }

    /// Closes the connections. Idempotent; the stores fail afterwards.
    public func close() {
        connections.close()
    }
}
