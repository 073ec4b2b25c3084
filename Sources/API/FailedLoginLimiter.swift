import Foundation

/// Counts failed logins per client address over a sliding window. An address
/// with `limit` failures inside the window is refused (429) until the oldest
/// of them leaves the window; credentials are not even checked then.
///
/// An actor: its table is the only mutable state of the reporter routes, and
/// each router owns its own limiter (no global state).
actor FailedLoginLimiter {
    private let limit: Int
    private let window: TimeInterval
    /// Failure times per address, oldest first, all inside the window as of
    /// the last access to that address.
    private var failures: [String: [Date]] = [:]
    /// Above this many addresses, every stale entry is dropped on the next
    /// failure, so the table cannot grow without bound.
    private let pruneThreshold: Int

    init(limit: Int, window: TimeInterval = 60, pruneThreshold: Int = 10_000) {
        // At least one failure is allowed: a limit of 0 would refuse every login.
        self.limit = max(1, limit)
        self.window = window
        self.pruneThreshold = pruneThreshold
    }

    /// Seconds to wait (at least 1) when `address` is over the limit at `now`; nil otherwise.
    func retryAfter(address: String, now: Date) -> Int? {
        let recent = current(address, now: now)
        guard recent.count >= limit else { return nil }
        // Allowed again once enough failures have left the window to go below the limit.
        let freeing = recent[recent.count - limit]
        let wait = freeing.addingTimeInterval(window).timeIntervalSince(now)
        return max(1, Int(wait.rounded(.up)))
    }

    /// Records one failed login from `address` at `now`.
    func recordFailure(address: String, now: Date) {
        var recent = current(address, now: now)
        recent.append(now)
        failures[address] = recent
        if failures.count > pruneThreshold { prune(now: now) }
    }

    private func current(_ address: String, now: Date) -> [Date] {
        guard let times = failures[address] else { return [] }
        let recent = times.filter { now.timeIntervalSince($0) < window }
        failures[address] = recent.isEmpty ? nil : recent
        return recent
    }

    private func prune(now: Date) {
        failures = failures.compactMapValues { times in
            let recent = times.filter { now.timeIntervalSince($0) < window }
            return recent.isEmpty ? nil : recent
        }
    }
}
