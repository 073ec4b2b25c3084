import Logging
import Model
import Ports

/// Puts call records on disk without the SIP loop ever waiting for it.
///
/// The loop calls `save(_:)` when a call starts, ends, is hung up, has an
/// end push answered, and is forgotten, always with the whole record and
/// only when it differs from the version it handed last; and
/// `hangUp(_:)` when the BYE of an answered call comes after the call was
/// forgotten. `save` only
/// puts the record in a pending map (id → latest version) under a lock and
/// returns; a dedicated thread (`call-records`) takes everything pending and
/// writes it in ONE transaction. Versions saved while a write runs replace
/// each other, so a busy call costs one row write per transaction, not one
/// per state change (coalescing).
///
/// A failed write is logged and counted (`failures`), and that version is
/// lost; a later, different save of the call carries the whole story
/// again, but a failed last save leaves the row at its previous version
/// (a call left without its end is closed `interrupted` at the next start).
///
/// Sendable: its stored properties are `let`s of `Sendable` types
/// (`BatchingWriter`, `WriteCounters`, `Logger`).
public final class CallRecordWriter: CallRecordSink {
    private let queue: BatchingWriter<CallRecordWriteQueue>
    private let counters: WriteCounters
    private let logger: Logger

    /// Name of the writer thread, as `top -H` and debuggers show it.
    public static let threadName = "call-records"

    /// Creates the writer. Its thread starts with `start()`, called by the
    /// owning service's `run()`, never by `init`; records saved before that
    /// wait in the pending map.
    /// `observe`: told each batch's size and write time (for metrics).
    public init(store: any CallRecordBatchStore, logger: Logger, observe: WriterBatchObserver? = nil) {
        let counters = WriteCounters()
        let batchWrite = CallRecordBatchWrite(store: store, logger: logger, counters: counters)
        self.counters = counters
        self.logger = logger
        queue = BatchingWriter(
            // Records can wait a moment; the SIP loop and the bindings' commits cannot.
            threadName: Self.threadName, nice: ThreadPriority.background, queue: CallRecordWriteQueue(), logger: logger,
            started: "Call record writer started", stopped: "Call record writer stopped", observe: observe
        ) { batchWrite.write($0) }
    }

    /// Starts the writer thread. Calling it again does nothing.
    public func start() {
        queue.startIfNeeded()
    }

    /// Shuts down (writes what is pending) if the owner forgot to.
    deinit {
        queue.shutdown()
    }

    /// Never blocks on disk (only on a short lock) and does no I/O on the
    /// caller's thread. Replaces any pending version with the same id. After
    /// `shutdown()` the record is dropped, logged and counted as a failure.
    public func save(_ record: CallRecord) {
        guard queue.enqueue(.record(record)) else {
            counters.add(failures: 1)
            logger.warning(
                "Call record dropped: the writer is shut down",
                metadata: ["call.record_id": "\(record.id)", "call.pairing_id": "\(record.pairingID)"])
            return
        }
    }

    /// Never blocks on disk. The hang-up goes to a version of its record
    /// still waiting, else to the stored row, after the records saved
    /// before. After `shutdown()` it is dropped, logged and counted.
    public func hangUp(_ bye: CallHangUp) {
        guard queue.enqueue(.hangUp(bye)) else {
            counters.add(failures: 1)
            logger.warning("Call hang-up dropped: the writer is shut down", metadata: ["sip.call_id": "\(bye.callID)"])
            return
        }
    }

    /// Blocks until every record saved before this call has been written (or
    /// its write has failed). Starts the thread if `start()` was not called.
    /// Called on the writer thread it returns at once.
    public func flush() {
        queue.startIfNeeded()
        queue.flush()
    }

    /// Stops accepting, writes everything pending, then returns once the
    /// thread has finished. Idempotent. A writer that was never started is
    /// started for this drain.
    public func shutdown() {
        queue.shutdown()
    }

    /// Record versions that were not written: failed writes, records that
    /// cannot be encoded, saves after shutdown.
    public var failures: Int { counters.current.failures }
    /// Record versions written (after coalescing).
    public var writtenRecords: Int { counters.current.written }
    /// Transactions committed.
    public var committedBatches: Int { counters.current.batches }
}
