import Dispatch
import Ports

/// The device-tuple work of calls, run off the SIP loop: the store's calls
/// block on the disk, so they stay off both the loop and Swift's cooperative
/// threads. Whoever queues work hops back to the loop with the result.
///
/// Reads (a callee's tuples when a call starts) and writes (deleting a tuple
/// whose token is gone, a push's answer when call records are off) have a
/// queue each: a write waits for SQLite's write lock, which the registrar's
/// group commits also take, and a new call's pushes must not wait behind it.
/// SQLite's WAL lets the reads go on meanwhile. Each queue runs its work one
/// at a time, in the order it was queued (a read takes well under a
/// millisecond, and one thread each keeps the threads bounded under load).
struct DeviceTupleQueue: Sendable {
    let store: any TupleRepository
    private let reads = DispatchQueue(label: "sipwake.tuples.read")
    private let writes = DispatchQueue(label: "sipwake.tuples.write")
    private let refreshes = DispatchQueue(label: "sipwake.tuples.refresh")

    init(store: any TupleRepository) {
        self.store = store
    }

    func read(_ work: @escaping @Sendable (any TupleRepository) -> Void) {
        reads.async { [store] in work(store) }
    }

    func write(_ work: @escaping @Sendable (any TupleRepository) -> Void) {
        writes.async { [store] in work(store) }
    }

    /// Index catch-ups (`DeviceTupleIndex`), on a queue of their own: a
    /// whole-table reload never delays a call's read.
    func refresh(_ work: @escaping @Sendable (any TupleRepository) -> Void) {
        refreshes.async { [store] in work(store) }
    }

    /// Blocks until every read, write and catch-up queued so far has run
    /// (shutdown: the database closes after this).
    func drain() {
        reads.sync {}
        writes.sync {}
        refreshes.sync {}
    }
}
