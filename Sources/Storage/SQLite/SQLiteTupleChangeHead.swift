import Foundation
import GRDB
import Ports

/// The tuple feed's latest change, read on a connection of its own that
/// never waits for a lock (busy timeout 0): in WAL mode a reader is never
/// blocked by the writer or a checkpoint, and when the file is locked
/// otherwise (a `VACUUM` from a shell) the answer is nil at once. One
/// statement on one page of `sqlite_sequence`, a few microseconds.
public final class SQLiteTupleChangeHead: TupleChangeHead {
    private let queue: DatabaseQueue

    /// Opens a read-only connection to `database`'s file.
    public init(database: SipwakeDatabase) throws {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .immediateError
        configuration.label = "sipwake.tuples.head"
        queue = try DatabaseQueue(path: database.path, configuration: configuration)
    }

    /// One statement, compiled once, in SQLite's own implicit read
    /// transaction: a `BEGIN`/`COMMIT` around a single `SELECT` would add
    /// two statements to compile and run on the SIP loop for every INVITE.
    public func latest() -> Int64? {
        try? queue.unsafeRead { db in
            let statement = try db.cachedStatement(
                sql: "SELECT seq FROM sqlite_sequence WHERE name = 'device_tuple_changes'")
            return try Int64.fetchOne(statement) ?? 0
        }
    }
}
