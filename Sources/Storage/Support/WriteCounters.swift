import Synchronization

/// What a batching writer has done so far, for its owner and for tests.
/// Sendable: its only stored property is a `Mutex`.
final class WriteCounters: Sendable {
    struct Counts: Sendable {
        /// Transactions committed.
        var batches = 0
        /// Submissions (or record versions) written.
        var written = 0
        /// Submissions (or record versions) not written.
        var failures = 0
    }

    private let counts = Mutex(Counts())

    var current: Counts {
        counts.withLock { $0 }
    }

    func add(batches: Int = 0, written: Int = 0, failures: Int = 0) {
        counts.withLock {
            $0.batches += batches
            $0.written += written
            $0.failures += failures
        }
    }
}
