import Foundation
import Model
import Synchronization

/// A provider's failures that say it is out (5xx, 429, no connection: the
/// retryable ones), told once a minute per provider with how many there
/// were, instead of one log line per push while a gateway is down.
/// Shared by the HTTP thread and callers of `PushClient`, under a mutex.
final class ProviderOutages: Sendable {
    static let interval: TimeInterval = 60
    private let counts = Mutex<[String: ThrottledCount]>([:])

    /// Adds one failure of `provider`; the failures to tell now (this one
    /// and those kept since the last telling), nil to keep quiet.
    func add(_ provider: String, now: Date) -> Int? {
        counts.withLock { counts in
            var count = counts[provider] ?? ThrottledCount(interval: Self.interval)
            let told = count.add(1, now: now)
            counts[provider] = count
            return told
        }
    }
}
