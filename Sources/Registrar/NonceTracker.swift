import Foundation

/// Replay protection for digest nonces (RFC 2617 §3.2.2, RFC 7616 §3.4):
/// every answered nonce is remembered with the highest nonce-count seen, so
/// a captured request sent again (same nonce, same nc) is refused, and a
/// nonce serves a bounded number of requests.
///
/// Only nonces that were answered with a right response are entered, so the
/// table grows with authenticated traffic, never with what an attacker
/// makes up; it is bounded all the same (`capacity`). Forgetting a nonce
/// must never make it usable again, so the tracker keeps a *horizon*: a
/// nonce issued at or before it that is not in the table is refused
/// (`forgotten`). Evicted entries move the horizon up to their issue time,
/// and a new tracker starts with the horizon at its creation: nonces issued
/// before a restart are refused, and the client, told `stale=true`, asks
/// for a fresh one without bothering the user.
///
/// A value type with no locks: the SIP loop owns one, the HTTP reporter
/// keeps its own behind a lock.
///
/// | request | nonce in table | verdict |
/// |---|---|---|
/// | nc greater than the last one | yes, uses left | fresh (recorded) |
/// | nc not greater, or no nc (no qop) | yes | replayed |
/// | nc greater | yes, `maxUses` reached | exhausted |
/// | any | no, issued after the horizon | fresh (entered) |
/// | any | no, issued at or before the horizon | forgotten |
public struct NonceTracker: Sendable {
    public enum Verdict: Sendable, Equatable {
        case fresh
        case replayed
        case exhausted
        case forgotten
    }

    private struct Entry {
        var issued: Date
        var lastCount: UInt32?
        var uses: Int
    }

    public let capacity: Int
    public let maxUses: Int
    /// Nonces issued at or before this time, and not in the table, are refused.
    public private(set) var horizon: Date
    private var entries: [String: Entry] = [:]
    /// Nonces in the order they were entered, for expiry and eviction.
    private var order: [(nonce: String, issued: Date)] = []
    private var orderStart = 0

    public var count: Int { entries.count }

    public init(capacity: Int = 100_000, maxUses: Int = 1000, startedAt: Date) {
        self.capacity = max(1, capacity)
        self.maxUses = max(1, maxUses)
        self.horizon = startedAt
    }

    /// Records one use of a nonce that `NonceIssuer.check` found valid.
    /// `count` is the request's nc (nil without qop: such a nonce is good
    /// for one request only). Nonces older than `lifetime` are dropped from
    /// the table as they go stale.
    public mutating func use(nonce: String, issued: Date, count: UInt32?, now: Date,
                             lifetime: TimeInterval) -> Verdict {
        expire(now: now, lifetime: lifetime)
        if var entry = entries[nonce] {
            guard let count, let last = entry.lastCount, count > last else { return .replayed }
            guard entry.uses < maxUses else { return .exhausted }
            entry.lastCount = count
            entry.uses += 1
            entries[nonce] = entry
            return .fresh
        }
        if issued <= horizon { return .forgotten }
        entries[nonce] = Entry(issued: issued, lastCount: count, uses: 1)
        order.append((nonce, issued))
        while entries.count > capacity, let oldest = popOldest() {
            if entries.removeValue(forKey: oldest.nonce) != nil, oldest.issued > horizon {
                horizon = oldest.issued
            }
        }
        return .fresh
    }

    /// Parses an nc value (8 hex digits, RFC 2617 §3.2.2).
    public static func parseCount(_ text: String?) -> UInt32? {
        guard let text, !text.isEmpty, text.utf8.count <= 8 else { return nil }
        return UInt32(text, radix: 16)
    }

    private mutating func expire(now: Date, lifetime: TimeInterval) {
        while orderStart < order.count, now.timeIntervalSince(order[orderStart].issued) > lifetime {
            let oldest = order[orderStart]
            orderStart += 1
            // A stale nonce is refused by its age anyway: no need to move the horizon.
            if let entry = entries[oldest.nonce], entry.issued == oldest.issued {
                entries.removeValue(forKey: oldest.nonce)
            }
        }
        compact()
    }

    private mutating func popOldest() -> (nonce: String, issued: Date)? {
        guard orderStart < order.count else { return nil }
        let oldest = order[orderStart]
        orderStart += 1
        compact()
        return oldest
    }

    /// Drops the consumed front of `order` once it is most of the array.
    private mutating func compact() {
        if orderStart > 1024 && orderStart * 2 > order.count {
            order.removeFirst(orderStart)
            orderStart = 0
        }
    }
}
