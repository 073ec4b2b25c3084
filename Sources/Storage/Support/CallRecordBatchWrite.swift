import Logging
import Model
import Ports

/// How the call-record writer's thread writes one batch: every record that
/// can be encoded, in one transaction; a record that cannot is logged and
/// counted, and does not stop the others. When the database refuses the
/// batch for what one row holds, each row is written on its own. Then the
/// hang-ups of records written before, in one more transaction.
struct CallRecordBatchWrite: Sendable {
    let store: any CallRecordBatchStore
    let logger: Logger
    let counters: WriteCounters

    func write(_ batch: CallRecordBatch) {
        write(batch.records)
        guard !batch.hangUps.isEmpty else { return }
        do {
            let ended = try store.hangUp(batch.hangUps)
            counters.add(batches: 1, written: ended)
            if ended < batch.hangUps.count {
                // The BYE of a call not recorded: a phone's call to the outbound
                // proxy, or one answered before this version of sipwake.
                logger.debug("Hang-up of no recorded call",
                             metadata: ["call_records.count": .stringConvertible(batch.hangUps.count - ended)])
            }
        } catch {
            logger.warning("Call hang-up write failed",
                           metadata: ["call_records.count": .stringConvertible(batch.hangUps.count), "error": "\(error)"])
            counters.add(failures: batch.hangUps.count)
        }
    }

    private func write(_ records: [CallRecord]) {
        var rows: [CallRecordRow] = []
        var failed = 0
        for record in records {
            do {
                rows.append(try CallRecordRow.encoded(record))
            } catch {
                failed += 1
                logger.warning(
                    "Call record cannot be stored",
                    metadata: ["call.record_id": "\(record.id)", "call.pairing_id": "\(record.pairingID)", "error": "\(error)"])
            }
        }
        guard !rows.isEmpty else { return counters.add(failures: failed) }
        do {
            try store.write(rows)
            counters.add(batches: 1, written: rows.count, failures: failed)
        } catch {
            // Nothing of the batch was written. A row the database refuses
            // must not take the others with it: write each on its own. When
            // the database itself failed (busy, full, closed), one by one
            // would fail the same way, a timeout each.
            guard rows.count > 1, store.isCausedByTheData(error) else {
                logger.warning("Call record write failed",
                               metadata: ["call_records.count": .stringConvertible(rows.count), "error": "\(error)"])
                return counters.add(failures: failed + rows.count)
            }
            logger.warning("Call record batch failed, writing its records one by one",
                           metadata: ["call_records.count": .stringConvertible(rows.count), "error": "\(error)"])
            for row in rows {
                do {
                    try store.write([row])
                    counters.add(batches: 1, written: 1)
                } catch {
                    failed += 1
                    logger.warning("Call record write failed",
                                   metadata: ["call.record_id": "\(row.id)", "error": "\(error)"])
                }
            }
            counters.add(failures: failed)
        }
    }
}
