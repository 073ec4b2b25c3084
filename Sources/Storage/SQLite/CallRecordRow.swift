import Model
import Ports
/// The `call_records` columns of one record, computed (validated and
/// encoded) before the transaction that writes them.
struct CallRecordRow: Sendable {
    var id: String
    var pairingID: String
    var callID: String
    var callee: String
    var caller: String
    var startedAt: Double
    var endedAt: Double?
    var outcome: String?
    var finalStatus: Int?
    /// The whole `CallRecord` as JSON.
    var record: String
    /// The last answered push of each device tuple in the record, written on
    /// the tuple (`last_push_*`) in the same transaction.
    var pushResults: [CallRecordPushResult] = []
}
