import Model
import Ports

/// What a call's last answered push to one device tuple said, for the
/// tuple's `last_push_at`, `last_push_status` and `last_push_result`.
public struct CallRecordPushResult: Sendable, Equatable {
    public var tupleID: Int64
    /// When the push was sent: a tuple created later is another device that
    /// got a reused id.
    public var sentAt: Double
    public var at: Double
    public var status: Int?
    public var result: String

    /// The last answered push per tuple of `record` (by answer time).
    public static func latest(in record: CallRecord) -> [CallRecordPushResult] {
        var byTuple: [Int64: CallRecordPushResult] = [:]
        for push in record.pushes {
            // Tuple ids start at 1: 0 is the customer's webhook, which has no tuple.
            guard push.tupleID > 0, let completed = push.completedAt, let result = push.result else { continue }
            let at = completed.timeIntervalSince1970
            if let known = byTuple[push.tupleID], known.at > at { continue }
            byTuple[push.tupleID] = CallRecordPushResult(
                tupleID: push.tupleID, sentAt: push.sentAt.timeIntervalSince1970, at: at, status: push.httpStatus,
                result: result)
        }
        return byTuple.values.sorted { $0.tupleID < $1.tupleID }
    }
}
