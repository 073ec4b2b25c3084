import Foundation

/// Limits password guessing: failed digest attempts are counted per source
/// address and per (source, user) over a window; past a limit the source,
/// or that user from that source, is refused for `blockTime` without its
/// credentials being checked, so a guess there teaches nothing.
///
/// Phones on mobile networks share addresses (carrier NAT), so a blocked
/// source still lets through the users that authenticated from it before the
/// block (`knownGoodTime`), and the per-source limit can be switched off
/// (`perSource` 0) where only (source, user) pairs must be blocked, as for
/// the HTTP reporter. A user authenticating from another address is never
/// affected: nothing here is keyed by user alone.
///
/// A value type with no locks: the SIP loop owns one; the HTTP reporter
/// keeps its own behind a lock. Memory is bounded by `capacity` entries per
/// table.
///
/// | event | state | result |
/// |---|---|---|
/// | attempt | source or pair blocked, user not known good there | blocked (retry after the block ends) |
/// | attempt | otherwise | allowed |
/// | failure | pair reaches `perUser` in the window | pair blocked for `blockTime` |
/// | failure | source reaches `perSource` in the window | source blocked for `blockTime` |
/// | success | — | pair forgotten; user known good at that source |
public struct AuthFailureLimiter: Sendable {
    public struct Limits: Sendable, Equatable {
        /// Failures from one address, any user, before it is blocked; 0 = no such limit.
        public var perSource: Int
        /// Failures for one user from one address before that pair is blocked.
        public var perUser: Int
        public var window: TimeInterval
        public var blockTime: TimeInterval
        /// How long a user that authenticated from an address stays exempt
        /// from that address's block.
        public var knownGoodTime: TimeInterval

        public init(perSource: Int, perUser: Int, window: TimeInterval, blockTime: TimeInterval,
                    knownGoodTime: TimeInterval = 3600) {
            self.perSource = max(0, perSource)
            self.perUser = max(1, perUser)
            self.window = max(1, window)
            self.blockTime = max(1, blockTime)
            self.knownGoodTime = knownGoodTime
        }
    }

    public enum Decision: Sendable, Equatable {
        case allowed
        /// Refused; the block lifts after this many seconds (at least 1).
        case blocked(retryAfter: Int)
    }

    /// What a failure changed.
    public enum Change: Sendable, Equatable {
        case counted
        case blockedPair
        case blockedSource
    }

    private struct Counter {
        var windowStart: Date
        var failures: Int
        var blockedUntil: Date?
    }

    private struct PairKey: Hashable {
        var source: String
        var user: String
    }

    public let limits: Limits
    public let capacity: Int
    private var sources: [String: Counter] = [:]
    private var pairs: [PairKey: Counter] = [:]
    private var knownGood: [PairKey: Date] = [:]

    /// Entries in the source, pair and known-good tables: each stays within
    /// `capacity` (for tests and for the memory bound it promises).
    var tableSizes: (sources: Int, pairs: Int, knownGood: Int) { (sources.count, pairs.count, knownGood.count) }

    public init(limits: Limits, capacity: Int = 100_000) {
        self.limits = limits
        self.capacity = max(16, capacity)
    }

    /// Whether `user` may try credentials from `source` now.
    public func check(source: String, user: String, now: Date) -> Decision {
        let source = AddressBlock.key(for: source)
        let key = PairKey(source: source, user: user.lowercased())
        var until: Date?
        if let blocked = pairs[key]?.blockedUntil, blocked > now { until = blocked }
        if let blocked = sources[source]?.blockedUntil, blocked > now, !isKnownGood(key, now: now) {
            until = max(until ?? blocked, blocked)
        }
        guard let until else { return .allowed }
        return .blocked(retryAfter: max(1, Int(until.timeIntervalSince(now).rounded(.up))))
    }

    /// Counts a failed attempt (a wrong response or an unknown user).
    @discardableResult
    public mutating func recordFailure(source: String, user: String, now: Date) -> Change {
        let source = AddressBlock.key(for: source)
        let key = PairKey(source: source, user: user.lowercased())
        var change = Change.counted
        if Self.count(&pairs[key], limit: limits.perUser, now: now, limits: limits) {
            change = .blockedPair
        }
        if limits.perSource > 0,
           Self.count(&sources[source], limit: limits.perSource, now: now, limits: limits) {
            change = .blockedSource
        }
        trim(now: now)
        return change
    }

    /// A right response: that user's failures from that source are forgotten
    /// and it passes the source's block for a while.
    public mutating func recordSuccess(source: String, user: String, now: Date) {
        let source = AddressBlock.key(for: source)
        let key = PairKey(source: source, user: user.lowercased())
        pairs.removeValue(forKey: key)
        guard limits.perSource > 0 else { return }
        knownGood[key] = now
        trim(now: now)
    }

    private func isKnownGood(_ key: PairKey, now: Date) -> Bool {
        guard let since = knownGood[key] else { return false }
        return now.timeIntervalSince(since) < limits.knownGoodTime
    }

    /// Adds one failure; true when this one starts a block.
    private static func count(_ counter: inout Counter?, limit: Int, now: Date, limits: Limits) -> Bool {
        var c = counter ?? Counter(windowStart: now, failures: 0, blockedUntil: nil)
        if now.timeIntervalSince(c.windowStart) >= limits.window {
            c.windowStart = now
            c.failures = 0
        }
        c.failures += 1
        var started = false
        if c.failures >= limit {
            let wasBlocked = (c.blockedUntil ?? .distantPast) > now
            c.blockedUntil = now.addingTimeInterval(limits.blockTime)
            started = !wasBlocked
        }
        counter = c
        return started
    }

    /// Keeps each table within `capacity`: first what no longer matters,
    /// then the oldest windows, blocks last.
    private mutating func trim(now: Date) {
        func stale(_ c: Counter) -> Bool {
            (c.blockedUntil ?? .distantPast) <= now && now.timeIntervalSince(c.windowStart) >= limits.window
        }
        // Blocks first, then the most recent windows.
        func keepFirst(_ a: Counter, _ b: Counter) -> Bool {
            let aBlocked = (a.blockedUntil ?? .distantPast) > now, bBlocked = (b.blockedUntil ?? .distantPast) > now
            if aBlocked != bBlocked { return aBlocked }
            return a.windowStart > b.windowStart
        }
        if sources.count > capacity {
            sources = sources.filter { !stale($0.value) }
            if sources.count > capacity {
                let keep = sources.sorted { keepFirst($0.value, $1.value) }.prefix(capacity / 2)
                sources = Dictionary(uniqueKeysWithValues: keep.map { ($0.key, $0.value) })
            }
        }
        if pairs.count > capacity {
            pairs = pairs.filter { !stale($0.value) }
            if pairs.count > capacity {
                let keep = pairs.sorted { keepFirst($0.value, $1.value) }.prefix(capacity / 2)
                pairs = Dictionary(uniqueKeysWithValues: keep.map { ($0.key, $0.value) })
            }
        }
        if knownGood.count > capacity {
            knownGood = knownGood.filter { now.timeIntervalSince($0.value) < limits.knownGoodTime }
            if knownGood.count > capacity {
                let keep = knownGood.sorted { $0.value > $1.value }.prefix(capacity / 2)
                knownGood = Dictionary(uniqueKeysWithValues: keep.map { ($0.key, $0.value) })
            }
        }
    }
}
