import Foundation

/// Occurrences of a problem that can come in floods, told in the log at most
/// once per `interval`: the first at once, the ones after it added up and
/// told together once the interval is over (on the next occurrence, or on
/// the next `due` check, which the caller makes every tick), so a storm
/// costs one line a minute and no occurrence goes untold. Pure; the caller
/// passes the time.
///
/// | event | last told | result |
/// |---|---|---|
/// | `add(n)` | never, or `interval` ago or more | n plus the untold ones, to tell now |
/// | `add(n)` | less than `interval` ago | nil: kept untold |
/// | `due` | `interval` ago or more, some untold | the untold ones, to tell now |
/// | `due` | otherwise | nil |
/// | either | in the future (the clock went back) | as if `interval` had passed |
public struct ThrottledCount: Sendable {
    public let interval: TimeInterval
    private var lastTold: Date?
    /// Occurrences added since the last time they were told.
    public private(set) var untold = 0

    public init(interval: TimeInterval) {
        self.interval = interval
    }

    /// Adds `count` occurrences; returns how many to tell now, nil while
    /// the last telling is younger than `interval`.
    public mutating func add(_ count: Int, now: Date) -> Int? {
        untold += count
        return due(now: now)
    }

    /// The occurrences not yet told, once `interval` has passed since the
    /// last telling; nil when there are none or it has not.
    public mutating func due(now: Date) -> Int? {
        guard untold > 0 else { return nil }
        if let lastTold, now >= lastTold, now.timeIntervalSince(lastTold) < interval { return nil }
        lastTold = now
        defer { untold = 0 }
        return untold
    }
}
