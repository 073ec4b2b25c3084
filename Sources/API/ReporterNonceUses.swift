import Foundation
import Registrar
import Synchronization

/// The reporter's `NonceTracker`, shared by the HTTP event loops behind a
/// lock (a verify holds it for one dictionary update, never across I/O).
final class ReporterNonceUses: Sendable {
    private let tracker: Mutex<NonceTracker>

    init(startedAt: Date, capacity: Int = 100_000, maxUses: Int = 1000) {
        tracker = Mutex(NonceTracker(capacity: capacity, maxUses: maxUses, startedAt: startedAt))
    }

    func withTracker<R>(_ body: (inout NonceTracker) -> R) -> R {
        tracker.withLock { body(&$0) }
    }
}
