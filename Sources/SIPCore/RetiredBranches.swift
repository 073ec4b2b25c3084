/// The INVITE branches sipwake stopped before they were answered
/// (`RetiredBranch` in the agent), by Via branch, each for Timer C (three minutes, RFC 3261
/// §16.6 step 11: as long as a device may take to answer). At most
/// `capacity` are kept; beyond that the oldest is forgotten early (a device
/// answering it that late gets no CANCEL from sipwake; counted in
/// `forgottenEarly`, and returned by `insert` for the agent to report).
/// Expired entries go as new ones come or responses are looked up. Loop
/// thread only.
final class RetiredBranches<Entry: RetiredBranchEntry> {
    static var lifetime: Duration { .seconds(180) }
    static var defaultCapacity: Int { 10_000 }
    let capacity: Int
    private var byBranch: [String: Entry] = [:]
    /// Branch keys in retirement order (the lifetime is the same for all,
    /// so the oldest is always first); `head` is the first one still queued.
    private var order: [String] = []
    private var head = 0
    private(set) var forgottenEarly = 0

    init(capacity: Int = defaultCapacity) {
        self.capacity = capacity
    }

    var count: Int { byBranch.count }
    var isEmpty: Bool { byBranch.isEmpty }

    /// Keeps `retired`; returns how many older entries were forgotten early
    /// to make room for it.
    @discardableResult
    func insert(_ retired: Entry, now: ContinuousClock.Instant) -> Int {
        removeExpired(now: now)
        var forgotten = 0
        while byBranch.count >= capacity, removeOldest() {
            forgotten += 1
        }
        forgottenEarly += forgotten
        if byBranch.updateValue(retired, forKey: retired.branch) == nil {
            order.append(retired.branch)
        }
        return forgotten
    }

    /// The retired branch a response with Via branch `branch` belongs to.
    func entry(branch: String, now: ContinuousClock.Instant) -> Entry? {
        removeExpired(now: now)
        return byBranch[branch.lowercased()]
    }

    func removeExpired(now: ContinuousClock.Instant) {
        while head < order.count {
            if let first = byBranch[order[head]], first.expiresAt > now { break }
            _ = removeOldest()
        }
    }

    func removeAll() {
        byBranch.removeAll()
        order.removeAll()
        head = 0
    }

    @discardableResult
    private func removeOldest() -> Bool {
        guard head < order.count else { return false }
        byBranch[order[head]] = nil
        head += 1
        if head > 1024 && head * 2 > order.count {
            order.removeFirst(head)
            head = 0
        }
        return true
    }
}
