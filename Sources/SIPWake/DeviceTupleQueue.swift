import Dispatch
import Ports

/// The device-tuple work of calls (reading a callee's tuples, deleting a
/// tuple whose token is gone, writing a push's answer on its tuple), run off
/// the SIP loop on a queue of its own: the store's calls block on the disk,
/// so they stay off both the loop and Swift's cooperative threads. Work runs
/// in the order it was queued; whoever queues it hops back to the loop with
/// the result.
struct DeviceTupleQueue: Sendable {
    let store: any TupleRepository
    private let queue = DispatchQueue(label: "sipwake.tuples")

    init(store: any TupleRepository) {
        self.store = store
    }

    func async(_ work: @escaping @Sendable (any TupleRepository) -> Void) {
        queue.async { [store] in work(store) }
    }
}
