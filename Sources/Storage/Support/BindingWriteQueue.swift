/// The binding writer's queue: submissions in order, taken at most
/// `maxBatch` at a time.
struct BindingWriteQueue: PendingWrites {
    let maxBatch: Int
    private var writes: [PendingBindingWrite] = []

    init(maxBatch: Int) {
        self.maxBatch = maxBatch
    }

    var isEmpty: Bool { writes.isEmpty }

    mutating func append(_ submission: PendingBindingWrite) {
        writes.append(submission)
    }

    mutating func takeBatch() -> (batch: [PendingBindingWrite], submissions: Int) {
        if writes.count <= maxBatch {
            defer { writes = [] }
            return (writes, writes.count)
        }
        let batch = Array(writes.prefix(maxBatch))
        writes.removeFirst(maxBatch)
        return (batch, batch.count)
    }
}
