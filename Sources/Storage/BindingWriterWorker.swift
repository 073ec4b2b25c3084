import Foundation
import GRDB
import Logging
import Model
import Registrar

/// The queue and the thread behind `BindingWriter`.
///
/// Kept apart from `BindingWriter` so the thread retains only this object:
/// when the last owner drops the `BindingWriter`, its `deinit` can still shut
/// the thread down.
///
/// Why `@unchecked Sendable` is safe:
/// - `store`, `logger`, `maxBatch` and `condition` are `let`s of `Sendable`
///   types (`NSCondition` is a lock meant to be shared between threads).
/// - Every `var` (`queue`, `accepting`, `finished`, `thread`, the counters)
///   is `private` and is read or written only between `condition.lock()` and
///   `condition.unlock()`; no reference to them escapes the lock.
/// - Completions and database work run with the lock released, on values
///   (`PendingBindingWrite`, `Sendable`) that were moved out of the queue
///   under the lock, so the writer thread owns them alone.
final class BindingWriterWorker: @unchecked Sendable {
    private let store: BindingStore
    private let logger: Logger
    private let maxBatch: Int
    private let condition = NSCondition()

    // Guarded by `condition`.
    private var queue: [PendingBindingWrite] = []
    private var accepting = true
    private var started = false
    private var finished = false
    private var thread: Thread?
    private var batches = 0
    private var submissions = 0
    private var failures = 0

    init(store: BindingStore, logger: Logger, maxBatch: Int) {
        self.store = store
        self.logger = logger
        self.maxBatch = maxBatch
    }

    /// Name of the writer thread, as `top -H` and debuggers show it (Linux
    /// thread names are at most 15 bytes).
    static let threadName = "bindings-writer"

    /// Starts the writer thread unless it already runs.
    func startIfNeeded() {
        condition.lock()
        let already = started
        condition.unlock()
        guard !already else { return }
        let thread = Thread { [self] in
            // On Linux a name set before `start()` does not reach the thread.
            Thread.current.name = Self.threadName
            self.run()
        }
        thread.name = Self.threadName
        condition.lock()
        guard !started else {
            condition.unlock()
            return
        }
        started = true
        self.thread = thread
        condition.unlock()
        thread.start()
    }

    func enqueue(_ write: PendingBindingWrite) {
        condition.lock()
        guard accepting else {
            condition.unlock()
            write.completion(.failure(StorageError.writerStopped))
            return
        }
        queue.append(write)
        condition.signal()
        condition.unlock()
    }

    func shutdown() {
        condition.lock()
        defer { condition.unlock() }
        accepting = false
        condition.broadcast()
        // From a completion, waiting for the writer thread would wait for itself.
        if let thread, Thread.current === thread { return }
        while started && !finished {
            condition.wait()
        }
    }

    var counters: (batches: Int, submissions: Int, failures: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (batches, submissions, failures)
    }

    // MARK: - Writer thread

    private func run() {
        logger.debug("Binding writer started")
        while let batch = nextBatch() {
            commit(batch)
        }
        logger.debug("Binding writer stopped")
    }

    /// Waits for work; returns up to `maxBatch` queued writes, or nil once
    /// shut down with nothing left (then `finished` is set and waiters woken).
    private func nextBatch() -> [PendingBindingWrite]? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty && accepting {
            condition.wait()
        }
        guard !queue.isEmpty else {
            finished = true
            thread = nil
            condition.broadcast()
            return nil
        }
        if queue.count <= maxBatch {
            defer { queue = [] }
            return queue
        }
        let batch = Array(queue.prefix(maxBatch))
        queue.removeFirst(maxBatch)
        return batch
    }

    private func commit(_ batch: [PendingBindingWrite]) {
        do {
            try store.apply(batch.flatMap(\.changes))
            record(batches: 1, submissions: batch.count, failures: 0)
            for write in batch {
                write.completion(.success(()))
            }
        } catch {
            // Nothing of the batch was written.
            guard batch.count > 1, Self.isCausedByTheData(error) else {
                // One submission, or the database itself failed (busy past
                // the timeout, disk full, I/O error, closed): retrying each
                // submission alone would fail the same way, one timeout each.
                for write in batch {
                    fail(write, error: error)
                }
                return
            }
            // Find the bad submission(s) by committing each on its own, so the
            // good ones still succeed.
            logger.warning(
                "Binding batch failed, committing its submissions one by one",
                metadata: ["submissions": "\(batch.count)", "error": "\(error)"])
            for write in batch {
                do {
                    try store.apply(write.changes)
                    record(batches: 1, submissions: 1, failures: 0)
                    write.completion(.success(()))
                } catch {
                    fail(write, error: error)
                }
            }
        }
    }

    /// Whether `error` comes from the changes themselves (a constraint, a
    /// value SQLite refuses, a value that cannot be encoded), so another
    /// submission of the same batch may well succeed on its own.
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

    private func fail(_ write: PendingBindingWrite, error: Error) {
        logger.error(
            "Binding write failed and was rolled back",
            metadata: ["changes": "\(write.changes.count)", "error": "\(error)"])
        record(batches: 0, submissions: 0, failures: 1)
        write.completion(.failure(error))
    }

    private func record(batches: Int, submissions: Int, failures: Int) {
        condition.lock()
        self.batches += batches
        self.submissions += submissions
        self.failures += failures
        condition.unlock()
    }
}
