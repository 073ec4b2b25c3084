import Model

/// The call-record writer's queue: the latest version of each record (by
/// id), so versions saved while a write runs replace each other and all
/// pending records go in one batch.
struct CallRecordWriteQueue: PendingWrites {
    private var latest: [String: CallRecord] = [:]
    /// Saves since the last batch, coalesced ones included.
    private var saves = 0

    var isEmpty: Bool { latest.isEmpty }

    mutating func append(_ submission: CallRecord) {
        latest[submission.id] = submission
        saves += 1
    }

    mutating func takeBatch() -> (batch: [CallRecord], submissions: Int) {
        defer {
            latest = [:]
            saves = 0
        }
        return (Array(latest.values), saves)
    }
}
