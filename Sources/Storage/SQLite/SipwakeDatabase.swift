import Foundation
import GRDB
import Synchronization

/// The sipwake database: one SQLite file in WAL mode, opened with a GRDB DatabasePool.
///
/// The server and the CLI open the same file at the same time, each with its
/// own `SipwakeDatabase`: WAL lets readers run beside the one writer, and the
/// 5 s busy timeout lets one process wait for the other's write to finish.
public final class SipwakeDatabase: Sendable {
    /// Every connection of the pool: the writer and the readers.
    public let pool: DatabasePool
    /// Identifier of the last applied migration, e.g. "v1-users-bindings".
    public let schemaVersion: String
    /// The file this database was opened from.
    public let path: String
    private let closed = Mutex(false)

    /// Creates parent directories if needed, opens, sets WAL, `synchronous=FULL`
    /// (a 200 OK to REGISTER is sent only after its binding is durable), busy
    /// timeout 5 s (the CLI writes the same file while the server runs), foreign
    /// keys on; runs migrations.
    public init(path: String) throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)

        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(5)
        // DatabasePool always puts the file in WAL mode; say so explicitly.
        configuration.journalMode = .wal
        configuration.prepareDatabase { db in
            // GRDB gives its read-only connections a 10 s busy timeout of their
            // own (`busyMode` only reaches the writer); use 5 s everywhere.
            try db.execute(sql: "PRAGMA busy_timeout = 5000")
            // Readers never commit, so this only keeps every connection
            // reporting the same value; the writer's is set below.
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        let pool = try DatabasePool(path: path, configuration: configuration)
        // GRDB sets `synchronous = NORMAL` on the writer when it enables WAL,
        // after `prepareDatabase`. Override it: with FULL, every commit fsyncs
        // the WAL, so a committed binding survives power loss, not only a
        // process crash. The pool keeps this one writer connection for its life.
        try pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        let migrator = StorageMigrations.migrator
        try migrator.migrate(pool)
        let applied = try pool.read { try migrator.appliedMigrations($0) }
        self.pool = pool
        self.path = path
        // migrate() succeeded, so at least v1 is applied.
        self.schemaVersion = applied.last ?? StorageMigrations.v1
    }

    /// Whether `error` comes from the data written (a constraint, a value
    /// SQLite refuses, a value that cannot be encoded), so another write may
    /// well succeed; false when the database itself failed.
    static func isCausedByTheData(_ error: Error) -> Bool {
        guard let error = error as? DatabaseError else {
            return true   // e.g. an EncodingError from one binding's path
        }
        switch error.resultCode {
        case .SQLITE_CONSTRAINT, .SQLITE_MISMATCH, .SQLITE_TOOBIG, .SQLITE_RANGE:
            return true
        default:
            return false
        }
    }

    /// Clean shutdown: WAL checkpoint(TRUNCATE) then close. Idempotent.
    ///
    /// If another process (the CLI, or the server) holds a read transaction the
    /// checkpoint cannot finish within the busy timeout; that is not an error:
    /// every committed transaction is already durable in the WAL, and the last
    /// connection to close checkpoints it. Any other checkpoint error is thrown
    /// after the pool is closed.
    public func close() throws {
        let alreadyClosed = closed.withLock { value -> Bool in
            defer { value = true }
            return value
        }
        if alreadyClosed { return }
        var checkpointError: Error?
        do {
            _ = try pool.writeWithoutTransaction { try $0.checkpoint(.truncate) }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
            checkpointError = nil
        } catch {
            checkpointError = error
        }
        try pool.close()
        if let checkpointError { throw checkpointError }
    }
}
