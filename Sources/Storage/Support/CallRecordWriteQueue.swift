import Model

/// The call-record writer's queue: the latest version of each record (by
/// id), so versions saved while a write runs replace each other and all
/// pending records go in one batch; and the hang-ups of records already
/// written, applied after them.
struct CallRecordWriteQueue: PendingWrites {
    private var latest: [String: CallRecord] = [:]
    private var hangUps: [CallHangUp] = []
    /// Submissions since the last batch, coalesced ones included.
    private var submissions = 0

    var isEmpty: Bool { latest.isEmpty && hangUps.isEmpty }

    mutating func append(_ submission: CallRecordWrite) {
        submissions += 1
        switch submission {
        case .record(let record):
            latest[record.id] = record
        case .hangUp(let bye):
            // A version still waiting takes it at once; else the stored row does.
            if let waiting = latest.values.lazy.compactMap({ $0.hangingUp(bye) }).first {
                latest[waiting.id] = waiting
            } else {
                hangUps.append(bye)
            }
        }
    }

    mutating func takeBatch() -> (batch: CallRecordBatch, submissions: Int) {
        defer {
            latest = [:]
            hangUps = []
            submissions = 0
        }
        return (CallRecordBatch(records: Array(latest.values), hangUps: hangUps), submissions)
    }
}
