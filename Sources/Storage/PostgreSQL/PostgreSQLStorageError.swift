import PostgresNIO

/// A PostgreSQL failure as the operator and the logs see it: which server
/// (host, port and database, never the password) and what went wrong.
/// postgres-nio's own errors print nothing useful on purpose (they may hold
/// query text), so each is turned into one of these where it surfaces.
public struct PostgreSQLStorageError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// No connection could be made, or the one in use was lost.
        case unreachable
        /// The server did not answer within the adapter's time limit.
        case timedOut
        /// The server refused a statement; carries its SQLSTATE.
        case refused(sqlState: String)
        /// A port was called on the adapter's own event loop, where waiting
        /// would wait for itself.
        case calledOnEventLoop

        /// Whether the connection is still good after it: the server
        /// refused one statement and the transaction was rolled back.
        var leavesTheConnectionUsable: Bool {
            if case .refused = self { return true }
            return false
        }
    }

    public let kind: Kind
    public let description: String

    init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }

    /// Whether the statement failed because of the values written (SQLSTATE
    /// class 22, data exception, or 23, integrity constraint violation): the
    /// same statement with other values may well succeed.
    public var isCausedByTheData: Bool {
        guard case .refused(let state) = kind else { return false }
        return state.hasPrefix("22") || state.hasPrefix("23")
    }

    /// A failure of the driver (a statement, a connection) as the adapter
    /// reports it.
    static func converting(_ error: any Error, at location: PostgreSQLLocation) -> PostgreSQLStorageError {
        if let error = error as? PostgreSQLStorageError { return error }
        guard let error = error as? PSQLError else {
            return PostgreSQLStorageError(.unreachable, "PostgreSQL at \(location) is unreachable: \(error)")
        }
        switch error.code {
        case .server:
            let state = error.serverInfo?[.sqlState] ?? "?????"
            let message = error.serverInfo?[.message] ?? "no message"
            return PostgreSQLStorageError(
                .refused(sqlState: state), "PostgreSQL at \(location) refused a statement: \(message) (SQLSTATE \(state))")
        case .queryCancelled:
            return PostgreSQLStorageError(.timedOut, "PostgreSQL at \(location) did not answer in time")
        default:
            let cause = error.underlying.map { ": \($0)" } ?? ""
            return PostgreSQLStorageError(
                .unreachable, "PostgreSQL at \(location) is unreachable (\(error.code))\(cause)")
        }
    }
}
