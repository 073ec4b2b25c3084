import Foundation
import Logging
import Model

/// A queue and the one named thread that drains it in batches: callers
/// never wait for the disk, and the thread writes everything queued while
/// the previous batch was being written in one go (group commit).
///
/// The thread starts with `startIfNeeded()`, never on its own; submissions
/// made before that wait. After `shutdown()` the queue is drained, and
/// `enqueue` refuses.
///
/// The thread retains only this object and `write`; the public writers own
/// it, so their `deinit` can still shut the thread down.
///
/// Why `@unchecked Sendable` is safe:
/// - `threadName`, `nice`, `logger`, the messages, `write`, `observe` and `condition` are
///   `let`s of `Sendable` types
///   (`NSCondition` is a lock meant to be shared between threads).
/// - Every `var` (`queue`, the sequence numbers, the flags, `thread`) is
///   `private` and is read or written only between `condition.lock()` and
///   `condition.unlock()`; no reference to them escapes the lock.
/// - `write` runs with the lock released, on a batch (a `Sendable` value)
///   moved out of `queue` under the lock, so the thread owns it alone.
final class BatchingWriter<Queue: PendingWrites>: @unchecked Sendable {
    private let threadName: String
    private let nice: Int32
    private let logger: Logger
    private let startedMessage: Logger.Message
    private let stoppedMessage: Logger.Message
    private let write: @Sendable (Queue.Batch) -> Void
    private let observe: WriterBatchObserver?
    private let condition = NSCondition()

    // Guarded by `condition`.
    private var queue: Queue
    /// Submissions accepted so far; `flush` waits until `processed` reaches it.
    private var submitted = 0
    /// Submissions whose batch has been written (or has failed).
    private var processed = 0
    private var accepting = true
    private var started = false
    private var finished = false
    private var thread: Thread?

    /// `threadName` is what `top -H` and debuggers show (Linux thread names
    /// are at most 15 bytes). The thread logs `started` and `stopped` at
    /// debug level. `write` is called on the thread, once per batch. `nice`:
    /// the thread's priority (`ThreadPriority`); 0 keeps the process's.
    /// `observe` is told each batch's size and write time, on the thread.
    init(threadName: String, nice: Int32 = 0, queue: Queue, logger: Logger, started: Logger.Message,
         stopped: Logger.Message, observe: WriterBatchObserver? = nil, write: @escaping @Sendable (Queue.Batch) -> Void) {
        self.observe = observe
        self.threadName = threadName
        self.nice = nice
        self.logger = logger
        self.startedMessage = started
        self.stoppedMessage = stopped
        self.queue = queue
        self.write = write
    }

    /// Starts the thread unless it already runs.
    func startIfNeeded() {
        condition.lock()
        let already = started
        condition.unlock()
        guard !already else { return }
        let name = threadName
        let nice = self.nice
        let thread = Thread { [self] in
            ThreadName.set(name)
            if nice != 0 { ThreadPriority.set(nice) }
            self.run()
        }
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

    /// Queues `submission`; `false` (and nothing queued) after `shutdown()`.
    func enqueue(_ submission: Queue.Submission) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard accepting else { return false }
        queue.append(submission)
        submitted += 1
        condition.signal()
        return true
    }

    /// Returns once every submission accepted before the call has been
    /// written (or failed). On the writer thread it returns at once.
    func flush() {
        condition.lock()
        defer { condition.unlock() }
        if let thread, Thread.current === thread { return }
        let target = submitted
        while processed < target && !finished {
            condition.wait()
        }
    }

    /// Stops accepting, then returns once the thread has written what was
    /// queued and ended. Idempotent. A writer that was never started is
    /// started for this drain, so nothing queued is lost. On the writer
    /// thread (from `write`) it stops accepting and returns at once; the
    /// thread still drains the queue.
    func shutdown() {
        startIfNeeded()
        condition.lock()
        defer { condition.unlock() }
        accepting = false
        condition.broadcast()
        // From `write`, waiting for the thread would wait for itself.
        if let thread, Thread.current === thread { return }
        while started && !finished {
            condition.wait()
        }
    }

    // MARK: - The thread

    private func run() {
        logger.debug(startedMessage)
        while let (batch, submissions) = nextBatch() {
            let started = ContinuousClock.now
            write(batch)
            observe?(submissions, ContinuousClock.now - started)
            condition.lock()
            processed += submissions
            condition.broadcast()
            condition.unlock()
        }
        logger.debug(stoppedMessage)
    }

    /// Waits for work; returns the next batch, or nil once shut down with
    /// nothing left (then `finished` is set and waiters woken).
    private func nextBatch() -> (Queue.Batch, Int)? {
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
        let (batch, submissions) = queue.takeBatch()
        return (batch, submissions)
    }
}
