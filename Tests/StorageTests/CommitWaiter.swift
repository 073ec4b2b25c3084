import Foundation
import Synchronization

/// Waits (with a time limit) for a completion called on another thread.
final class CommitWaiter: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let outcome = Mutex<Bool?>(nil)

    func finish(_ result: Result<Void, Error>) {
        outcome.withLock { value in
            if case .success = result { value = true } else { value = false }
        }
        done.signal()
    }

    /// true for a success, false for a failure, nil when nothing came within 5 s.
    func wait() -> Bool? {
        guard done.wait(timeout: .now() + 5) == .success else { return nil }
        return outcome.withLock { $0 }
    }
}
