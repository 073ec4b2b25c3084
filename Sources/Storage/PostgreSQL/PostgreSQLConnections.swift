import Dispatch
import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization

/// The adapter's connections to PostgreSQL, on an event loop group of its
/// own, and the one place a port's synchronous call waits for the async
/// driver.
///
/// WHERE IT BLOCKS: `wait(_:)` blocks the calling thread until the driver's
/// future completes on the adapter's event loop, or the time limit passes.
/// The callers are the threads that may wait for the database: the binding
/// and call-record writer threads, the `sipwake.users`,
/// `sipwake.tuples.*` and `sipwake.bindings.deletions` queues, the tuple
/// change head's thread, the CLI's main thread, the reads at start and the
/// hourly purges on Swift's cooperative threads, and the HTTP handlers (as
/// with SQLite, whose calls block the same threads). None of them is the SIP
/// loop (`TupleChangeHead.latest()`, the one port called there, reads a value
/// kept fresh by its own thread), and none is this group's event loop: the
/// future completes there, so waiting on it would wait for itself, and a
/// call made there throws `calledOnEventLoop` instead. Swift's cooperative
/// pool is never needed to complete a wait, so a blocked cooperative thread
/// cannot starve the driver.
///
/// A connection that failed or was closed by the server (PostgreSQL
/// restarted) is dropped, not reused; the next call connects anew, so the
/// adapter recovers by itself once the server is back.
final class PostgreSQLConnections: Sendable {
    let location: PostgreSQLLocation
    /// How long a statement or a connection attempt may take.
    let timeout: TimeAmount
    private let group: MultiThreadedEventLoopGroup
    private let loop: any EventLoop
    private let configuration: PostgresConnection.Configuration
    private let logger: Logger
    private let state = Mutex(PoolState())
    /// Idle connections kept for reuse; more are closed when given back.
    private let keptIdle = 8

    init(location: PostgreSQLLocation, timeout: TimeAmount, applicationName: String, logger: Logger) {
        self.location = location
        self.timeout = timeout
        var configuration = PostgresConnection.Configuration(
            host: location.host, port: location.port, username: location.username,
            password: location.password, database: location.database, tls: .disable)
        configuration.options.connectTimeout = timeout
        configuration.options.additionalStartupParameters = [("application_name", applicationName)]
        self.configuration = configuration
        // The driver logs its connections' life at debug; sipwake reports
        // failures itself, with the server's name and never the password.
        var driverLogger = logger
        driverLogger.logLevel = .warning
        self.logger = driverLogger
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        loop = group.next()
    }

    /// Runs `body` with a connection of the pool, then gives it back unless
    /// it failed.
    func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        let connection = try lease()
        do {
            let value = try body(connection)
            giveBack(connection, usable: true)
            return value
        } catch {
            // A failed statement of a healthy connection leaves it usable
            // (the caller rolled back); a lost or timed-out one is closed.
            giveBack(connection, usable: (error as? PostgreSQLStorageError)?.kind.leavesTheConnectionUsable ?? true)
            throw error
        }
    }

    /// A connection of its own, outside the pool, for a LISTEN that stays
    /// open (`PostgreSQLStoreNotifications.listen`); the caller closes it.
    func connectForListening() async throws -> PostgresConnection {
        try await PostgresConnection.connect(on: loop, configuration: configuration, id: 0, logger: logger)
    }

    /// Waits on the calling thread (see the type's comment) for `future`.
    /// - Throws: the driver's error converted, `timedOut`, or
    ///   `calledOnEventLoop`.
    func wait<T: Sendable>(_ future: EventLoopFuture<T>) throws -> T {
        guard !loop.inEventLoop else {
            throw PostgreSQLStorageError(.calledOnEventLoop, "PostgreSQL at \(location) was called on its own event loop")
        }
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<T, any Error>?>(nil)
        future.whenComplete { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        let seconds = Double(timeout.nanoseconds) / 1_000_000_000
        guard done.wait(timeout: .now() + seconds) == .success else {
            throw PostgreSQLStorageError(.timedOut, "PostgreSQL at \(location) did not answer within \(seconds) s")
        }
        do {
            return try outcome.withLock { $0! }.get()
        } catch {
            throw PostgreSQLStorageError.converting(error, at: location)
        }
    }

    /// Refuses new work, waits (up to the time limit) for the connections
    /// lent out to come back, closes every connection and stops the event
    /// loop: none is dropped unclosed. Idempotent.
    func close() {
        let first = state.withLock { state -> Bool in
            defer { state.closed = true }
            return !state.closed
        }
        guard first else { return }
        let deadline = ContinuousClock.now + .nanoseconds(timeout.nanoseconds)
        while state.withLock({ $0.lent > 0 }) && ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.005)
        }
        let connections = state.withLock { state -> [PostgresConnection] in
            defer { state.idle = [] }
            return state.idle
        }
        for connection in connections {
            _ = try? wait(connection.close() as EventLoopFuture<Void>)
        }
        try? group.syncShutdownGracefully()
    }

    private func lease() throws -> PostgresConnection {
        let (reused, id) = try state.withLock { state -> (PostgresConnection?, Int) in
            guard !state.closed else {
                throw PostgreSQLStorageError(.unreachable, "PostgreSQL at \(location) is closed")
            }
            state.lent += 1
            while let connection = state.idle.popLast() {
                if !connection.isClosed { return (connection, 0) }
            }
            state.nextID += 1
            return (nil, state.nextID)
        }
        if let reused { return reused }
        do {
            return try wait(PostgresConnection.connect(on: loop, configuration: configuration, id: id, logger: logger))
        } catch {
            state.withLock { $0.lent -= 1 }
            throw error
        }
    }

    /// Takes a lent connection back: kept for reuse when `usable`, closed
    /// otherwise (and when the pool is full or closing).
    private func giveBack(_ connection: PostgresConnection, usable: Bool) {
        let kept = state.withLock { state -> Bool in
            state.lent -= 1
            guard usable, !connection.isClosed, state.idle.count < keptIdle, !state.closed else { return false }
            state.idle.append(connection)
            return true
        }
        if !kept && !connection.isClosed {
            _ = try? wait(connection.close() as EventLoopFuture<Void>)
        }
    }
}
