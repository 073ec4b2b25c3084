import Foundation
import Logging
import Model
import Ports
import Synchronization

/// The tuple feed's latest change, answered at once on the SIP loop: a
/// thread of its own (`tuples-head`) reads `feed_heads` every `interval`
/// and keeps the value; `latest()` only takes a lock and returns it. When
/// the last successful read is older than `staleAfter` (PostgreSQL
/// unreachable), `latest()` answers nil and the call path reads the store.
///
/// Another node's tuple write reaches this node's calls within `interval`
/// (this node's own writes update its index before they return).
///
/// WHERE IT BLOCKS: only its own thread, on each read of the head; nothing
/// else waits for that thread.
public final class PostgreSQLTupleChangeHead: TupleChangeHead {
    private struct Reading {
        var seq: Int64?
        var at: ContinuousClock.Instant?
        var stopped = false
    }

    private let reading = Mutex(Reading())
    private let staleAfter: Duration

    /// Reads the head once (so the first INVITE has it), then starts the
    /// thread. The thread ends with `stop()` or when the object goes away.
    public init(database: PostgreSQLDatabase, interval: Duration = .milliseconds(20),
                staleAfter: Duration = .seconds(1), logger: Logger) {
        self.staleAfter = staleAfter
        refresh(database)
        let thread = Thread { [weak self] in
            Self.run(database: database, interval: interval, logger: logger) { self }
        }
        thread.name = "tuples-head"
        thread.start()
    }

    deinit {
        stop()
    }

    public func latest() -> Int64? {
        reading.withLock { reading in
            guard let seq = reading.seq, let at = reading.at, ContinuousClock.now - at < staleAfter else { return nil }
            return seq
        }
    }

    /// Ends the thread after its current read.
    public func stop() {
        reading.withLock { $0.stopped = true }
    }

    private var isStopped: Bool { reading.withLock { $0.stopped } }

    /// One read; true when it succeeded.
    @discardableResult
    private func refresh(_ database: PostgreSQLDatabase) -> Bool {
        guard let seq = try? database.read({ try PostgreSQLTupleStore.head($0) }) else { return false }
        reading.withLock {
            $0.seq = seq
            $0.at = .now
        }
        return true
    }

    private static func run(database: PostgreSQLDatabase, interval: Duration, logger: Logger,
                            owner: () -> PostgreSQLTupleChangeHead?) {
        ThreadName.set("tuples-head")
        var failing = false
        while let head = owner(), !head.isStopped {
            let succeeded = head.refresh(database)
            if !succeeded && !failing {
                logger.warning("tuple change head unreadable, calls read device tuples from the database",
                               metadata: ["database.location": "\(database.location)"])
            }
            failing = !succeeded
            Thread.sleep(forTimeInterval: Double(interval.components.attoseconds) / 1e18 + Double(interval.components.seconds))
        }
    }
}
