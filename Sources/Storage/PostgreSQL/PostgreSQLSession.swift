import Logging
import NIOCore
import Ports
import PostgresNIO

/// One connection lent to a store for one read or one transaction: each
/// statement is sent on the adapter's event loop and the calling thread
/// waits for its answer (`PostgreSQLConnections.wait`).
struct PostgreSQLSession {
    let connection: PostgresConnection
    let connections: PostgreSQLConnections
    let logger: Logger

    /// Runs a statement; returns how many rows it changed.
    @discardableResult
    func execute(_ query: PostgresQuery) throws -> Int {
        try connections.wait(connection.query(query, logger: logger)).metadata.rows ?? 0
    }

    /// Runs statements one after the other without waiting between them
    /// (the driver queues them on the connection), then waits for all: one
    /// wait for a whole batch instead of one per statement. The first error
    /// is thrown, after every answer came (the server refuses the statements
    /// that follow a failed one in a transaction).
    func executeAll(_ queries: [PostgresQuery]) throws {
        let futures = queries.map { connection.query($0, logger: logger) }
        var firstError: (any Error)?
        for future in futures {
            do {
                _ = try connections.wait(future)
            } catch {
                if firstError == nil { firstError = error }
            }
        }
        if let firstError { throw firstError }
    }

    /// The rows a query returns, each readable by column name.
    func rows(_ query: PostgresQuery) throws -> [PostgresRandomAccessRow] {
        try connections.wait(connection.query(query, logger: logger)).rows.map { $0.makeRandomAccess() }
    }

    /// The first column of the first row, or nil when there is no row.
    func value<T: PostgresDecodable>(_ query: PostgresQuery, as type: T.Type) throws -> T? {
        guard let row = try connections.wait(connection.query(query, logger: logger)).rows.first else { return nil }
        do {
            return try row.makeRandomAccess()[0].decode(T.self)
        } catch {
            throw StorageError.corruptRow(table: "?", detail: "unexpected value in column '\(row.makeRandomAccess()[0].columnName)'")
        }
    }

    /// Runs `body` between `begin` and COMMIT; rolls back and rethrows when
    /// it throws (then nothing of it was written). A lost connection has
    /// nothing to roll back: the server dropped the transaction with it.
    func transaction<T>(_ begin: PostgresQuery = "BEGIN", _ body: () throws -> T) throws -> T {
        try execute(begin)
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            if !connection.isClosed { _ = try? execute("ROLLBACK") }
            throw error
        }
    }
}
