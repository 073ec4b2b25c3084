/// What a call's last answered push to one device tuple said, for the
/// tuple's `last_push_at`, `last_push_status` and `last_push_result`.
struct CallRecordPushResult: Sendable, Equatable {
    var tupleID: Int64
    var at: Double
    var status: Int?
    var result: String

    /// The last answered push per tuple of `record`.
    static func latest(in record: CallRecord) -> [CallRecordPushResult] {
        var byTuple: [Int64: CallRecordPushResult] = [:]
        for push in record.pushes {
            guard let completed = push.completedAt, let result = push.result else { continue }
            byTuple[push.tupleID] = CallRecordPushResult(
                tupleID: push.tupleID, at: completed.timeIntervalSince1970, status: push.httpStatus, result: result)
        }
        return byTuple.values.sorted { $0.tupleID < $1.tupleID }
    }
}
