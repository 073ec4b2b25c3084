import Logging
import Model
import Ports

/// Group commit: the SIP loop must never wait on disk, and a REGISTER's 200 OK
/// must wait for durability. Writes are queued; a single writer thread (never
/// the caller's) takes everything queued (up to `maxBatch` submissions),
/// commits it in ONE transaction (one fsync with `synchronous=FULL`), then
/// calls each submitter's completion. Under load one fsync serves hundreds of
/// REGISTERs, and while it runs the next batch piles up.
///
/// Order: submissions are committed in submission order, and completions are
/// called in that order.
///
/// Sendable: its stored properties are `let`s to classes that are themselves
/// safe to share (`BatchingWriter`, `WriteCounters`).
public final class BindingWriter: BindingJournal {
    private let queue: BatchingWriter<BindingWriteQueue>
    private let counters: WriteCounters

    /// Name of the writer thread, as `top -H` and debuggers show it.
    public static let threadName = "bindings-writer"

    /// Creates the writer. Its thread starts with `start()`, called by the
    /// owning service's `run()`, never by `init`; submissions made before
    /// that wait in the queue.
    /// `observe`: told each batch's size and commit time (for metrics).
    public init(store: any BindingBatchStore, logger: Logger, maxBatch: Int = 1024, observe: WriterBatchObserver? = nil) {
        precondition(maxBatch > 0, "maxBatch must be positive")
        let counters = WriteCounters()
        let batchCommit = BindingBatchCommit(store: store, logger: logger, counters: counters)
        self.counters = counters
        queue = BatchingWriter(
            threadName: Self.threadName, queue: BindingWriteQueue(maxBatch: maxBatch), logger: logger,
            started: "Binding writer started", stopped: "Binding writer stopped", observe: observe
        ) { batchCommit.commit($0) }
    }

    /// Starts the writer thread. Calling it again does nothing.
    public func start() {
        queue.startIfNeeded()
    }

    /// Shuts down (drains and commits what is queued) if the owner forgot to.
    deinit {
        queue.startIfNeeded()
        queue.shutdown()
    }

    /// Never blocks on disk (only on a short queue lock). `completion` is
    /// called on the writer thread after the commit, or with the error after
    /// the rollback, and then none of `changes` was written. If one change of a
    /// batch fails (a constraint, a value the database refuses), the writer falls back
    /// to committing each submission of that batch in its own transaction, so
    /// one bad submission does not fail the others. If the database itself
    /// fails (busy beyond the timeout, disk full, I/O error, closed, unreachable), every
    /// submission of the batch gets that error at once instead: retrying them
    /// one by one would only fail the same way, one busy timeout each.
    /// After `shutdown()`, `completion` is called at once, on the caller's
    /// thread, with `StorageError.writerStopped`.
    ///
    /// Completions run on the writer thread and delay the next commit while
    /// they run: hop back to your own loop and return.
    public func submit(_ changes: [BindingChange], completion: @escaping @Sendable (Result<Void, Error>) -> Void) {
        guard queue.enqueue(PendingBindingWrite(changes: changes, completion: completion)) else {
            completion(.failure(StorageError.writerStopped))
            return
        }
    }

    /// Stops accepting, drains and commits what is queued, then returns once
    /// every queued completion has been called. Idempotent. Called from a
    /// completion (on the writer thread) it stops accepting and returns
    /// without waiting; the thread still drains the queue.
    public func shutdown() {
        queue.shutdown()
    }

    /// Transactions committed (a batch, or one submission when a batch falls back).
    public var committedBatches: Int { counters.current.batches }
    /// Submissions whose changes were committed (completion got `.success`).
    public var committedSubmissions: Int { counters.current.written }
    /// Submissions whose changes were rolled back (completion got `.failure`).
    public var failedSubmissions: Int { counters.current.failures }
}
