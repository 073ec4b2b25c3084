import Logging
import Model
import Ports

/// How the binding writer's thread commits one batch: all submissions in
/// one transaction; when that fails because of one submission's data, each
/// on its own, so the good ones still succeed.
struct BindingBatchCommit: Sendable {
    let store: any BindingBatchStore
    let logger: Logger
    let counters: WriteCounters

    func commit(_ batch: [PendingBindingWrite]) {
        do {
            try store.apply(batch.flatMap(\.changes))
            counters.add(batches: 1, written: batch.count)
            for write in batch {
                write.completion(.success(()))
            }
        } catch {
            // Nothing of the batch was written.
            guard batch.count > 1, store.isCausedByTheData(error) else {
                // One submission, or the database itself failed (busy past
                // the timeout, disk full, I/O error, closed): retrying each
                // submission alone would fail the same way, one timeout each.
                for write in batch {
                    fail(write, error: error)
                }
                return
            }
            // Find the bad submission(s) by committing each on its own, so the
            // good ones still succeed.
            logger.warning(
                "Binding batch failed, committing its submissions one by one",
                metadata: ["writer.submissions": .stringConvertible(batch.count), "error": "\(error)"])
            for write in batch {
                do {
                    try store.apply(write.changes)
                    counters.add(batches: 1, written: 1)
                    write.completion(.success(()))
                } catch {
                    fail(write, error: error)
                }
            }
        }
    }

    private func fail(_ write: PendingBindingWrite, error: Error) {
        logger.warning(
            "Binding write failed and was rolled back",
            metadata: ["bindings.changes": .stringConvertible(write.changes.count), "error": "\(error)"])
        counters.add(failures: 1)
        write.completion(.failure(error))
    }
}
