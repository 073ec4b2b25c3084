import Foundation
import Logging
import Model

/// The pending map and the thread behind `CallRecordWriter`.
///
/// Kept apart from `CallRecordWriter` so the thread retains only this object:
/// when the last owner drops the `CallRecordWriter`, its `deinit` can still
/// shut the thread down.
///
/// Why `@unchecked Sendable` is safe:
/// - `store`, `logger` and `condition` are `let`s of `Sendable` types
///   (`NSCondition` is a lock meant to be shared between threads).
/// - Every `var` (`pending`, the sequence numbers, the flags, `thread`, the
///   counters) is `private` and is read or written only between
///   `condition.lock()` and `condition.unlock()`; no reference to them
///   escapes the lock.
/// - Encoding, database work and logging run with the lock released, on
///   records (`Sendable` values) moved out of `pending` under the lock, so
///   the writer thread owns them alone.
final class CallRecordWriterWorker: @unchecked Sendable {
    private let store: CallRecordStore
    private let logger: Logger
    private let condition = NSCondition()

    // Guarded by `condition`.
    private var pending: [String: CallRecord] = [:]
    /// Saves accepted so far; `flush` waits until `processed` reaches it.
    private var submitted = 0
    /// Saves whose version was written (or whose write failed).
    private var processed = 0
    private var accepting = true
    private var started = false
    private var finished = false
    private var thread: Thread?
    private var batches = 0
    private var written = 0
    private var failures = 0

    init(store: CallRecordStore, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    /// Name of the writer thread, as `top -H` and debuggers show it (Linux
    /// thread names are at most 15 bytes).
    static let threadName = "call-records"

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

    func enqueue(_ record: CallRecord) {
        condition.lock()
        guard accepting else {
            failures += 1
            condition.unlock()
            logger.warning(
                "Call record dropped: the writer is shut down",
                metadata: ["record": "\(record.id)", "pairing_id": "\(record.pairingID)"])
            return
        }
        pending[record.id] = record
        submitted += 1
        condition.signal()
        condition.unlock()
    }

    func flush() {
        condition.lock()
        defer { condition.unlock() }
        if let thread, Thread.current === thread { return }
        let target = submitted
        while processed < target && !finished {
            condition.wait()
        }
    }

    func shutdown() {
        condition.lock()
        defer { condition.unlock() }
        accepting = false
        condition.broadcast()
        if let thread, Thread.current === thread { return }
        while started && !finished {
            condition.wait()
        }
    }

    var counters: (batches: Int, written: Int, failures: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (batches, written, failures)
    }

    // MARK: - Writer thread

    private func run() {
        logger.debug("Call record writer started")
        while let (records, through) = nextBatch() {
            write(records, through: through)
        }
        logger.debug("Call record writer stopped")
    }

    /// Waits for work; returns every pending record and the save sequence
    /// number it covers, or nil once shut down with nothing left (then
    /// `finished` is set and waiters woken).
    private func nextBatch() -> ([CallRecord], Int)? {
        condition.lock()
        defer { condition.unlock() }
        while pending.isEmpty && accepting {
            condition.wait()
        }
        guard !pending.isEmpty else {
            finished = true
            thread = nil
            condition.broadcast()
            return nil
        }
        defer { pending = [:] }
        return (Array(pending.values), submitted)
    }

    private func write(_ records: [CallRecord], through sequence: Int) {
        var rows: [CallRecordRow] = []
        var unwritable = 0
        for record in records {
            do {
                rows.append(try CallRecordStore.encoded(record))
            } catch {
                unwritable += 1
                logger.error(
                    "Call record cannot be stored",
                    metadata: ["record": "\(record.id)", "pairing_id": "\(record.pairingID)", "error": "\(error)"])
            }
        }
        var committed = 0
        var failed = unwritable
        if !rows.isEmpty {
            do {
                try store.write(rows)
                committed = 1
            } catch {
                failed += rows.count
                logger.error(
                    "Call record write failed",
                    metadata: ["records": "\(rows.count)", "error": "\(error)"])
            }
        }
        condition.lock()
        batches += committed
        written += committed * rows.count
        failures += failed
        processed = sequence
        condition.broadcast()
        condition.unlock()
    }
}
