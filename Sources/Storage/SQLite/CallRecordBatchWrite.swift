import Logging
import Model
import Ports

/// How the call-record writer's thread writes one batch: every record that
/// can be encoded, in one transaction; a record that cannot is logged and
/// counted, and does not stop the others.
struct CallRecordBatchWrite: Sendable {
    let store: CallRecordStore
    let logger: Logger
    let counters: WriteCounters

    func write(_ records: [CallRecord]) {
        var rows: [CallRecordRow] = []
        var failed = 0
        for record in records {
            do {
                rows.append(try CallRecordStore.encoded(record))
            } catch {
                failed += 1
                logger.warning(
                    "Call record cannot be stored",
                    metadata: ["call.record_id": "\(record.id)", "call.pairing_id": "\(record.pairingID)", "error": "\(error)"])
            }
        }
        var committed = 0
        if !rows.isEmpty {
            do {
                try store.write(rows)
                committed = 1
            } catch {
                failed += rows.count
                logger.warning(
                    "Call record write failed",
                    metadata: ["call_records.count": "\(rows.count)", "error": "\(error)"])
            }
        }
        counters.add(batches: committed, written: committed * rows.count, failures: failed)
    }
}
