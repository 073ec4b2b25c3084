import Foundation
import Registrar

/// Decides, before any other work, whether a request from an untrusted
/// source is worth handling: the first line of defence against floods.
///
/// Trusted peers (the PBX) and edge proxies are never limited. A source
/// where a user authenticated recently (`knownGoodTime`) gets a bucket of
/// its own, `knownGoodFactor` times the stranger's rate or the strangers'
/// global rate, whichever is larger (5000 a second by default), and is served even
/// while the loop is overloaded: phones behind one carrier NAT share it, and
/// a registration storm from a proxy or a test tool comes from one. Its
/// bucket is still bounded, because a UDP source address proves nothing: an
/// attacker who learns such an address can send from it. A source that has
/// not proved itself goes
/// through two token buckets: one per source address
/// (`sip.max_unauthenticated_per_source` a second, bursts of twice that) and
/// one for all such sources together (`sip.max_stateless_per_second`), and
/// is dropped, unanswered, when either is empty or when the SIP loop is
/// overloaded. Dropping costs less than answering and reflects nothing at
/// the (possibly spoofed) source.
///
/// | source | loop | buckets | decision |
/// |---|---|---|---|
/// | trusted peer or edge proxy | any | — | admit |
/// | known good | any | its own bucket (`knownGoodRate`) has a token | admit |
/// | known good | any | its own bucket is empty | drop |
/// | other | overloaded | — | drop |
/// | other | not overloaded | its bucket and the global one have a token | admit |
/// | other | not overloaded | a bucket is empty | drop |
///
/// Sources are counted by `AddressBlock` (an IPv6 address by its /64).
/// Pure and used on the SIP loop only; memory is bounded by `capacity`
/// source entries.
struct RequestAdmission {
    enum Decision: Equatable {
        case admit
        case dropSourceLimit
        case dropGlobalLimit
        case dropOverload
    }

    private struct Bucket {
        var tokens: Double
        var updated: Date
    }

    let perSource: Int
    let global: Int
    let knownGoodTime: TimeInterval
    /// How many times a stranger's rate a known-good source may send.
    static let knownGoodFactor = 10
    /// A known-good source's rate: 0 (no limit) when strangers have none.
    var knownGoodRate: Int { perSource == 0 ? 0 : max(perSource * Self.knownGoodFactor, global) }
    let capacity: Int
    private var sources: [String: Bucket] = [:]
    private var everyone: Bucket
    private var knownGood: [String: Date] = [:]

    init(perSource: Int, global: Int, knownGoodTime: TimeInterval = 3600, capacity: Int = 100_000, now: Date) {
        self.perSource = max(0, perSource)
        self.global = max(0, global)
        self.knownGoodTime = knownGoodTime
        self.capacity = max(16, capacity)
        everyone = Bucket(tokens: Double(max(0, global)), updated: now)
    }

    /// Whether to handle a request from `source`. `exempt` for trusted peers
    /// and edge proxies; `overloaded` when the SIP loop is falling behind.
    mutating func admit(source: String, exempt: Bool, overloaded: Bool, now: Date) -> Decision {
        if exempt { return .admit }
        let source = AddressBlock.key(for: source)
        if let since = knownGood[source], now.timeIntervalSince(since) < knownGoodTime {
            return take(source, rate: knownGoodRate, now: now) ? .admit : .dropSourceLimit
        }
        if overloaded { return .dropOverload }
        guard take(source, rate: perSource, now: now) else { return .dropSourceLimit }
        if global > 0 {
            Self.refill(&everyone, rate: Double(global), burst: Double(global), now: now)
            guard everyone.tokens >= 1 else { return .dropGlobalLimit }
            everyone.tokens -= 1
        }
        return .admit
    }

    /// A token from `source`'s bucket (`rate` a second, bursts of twice
    /// that); true when there was one. A rate of 0 means no limit.
    private mutating func take(_ source: String, rate: Int, now: Date) -> Bool {
        guard rate > 0 else { return true }
        let perSecond = Double(rate)
        var bucket = sources[source] ?? Bucket(tokens: perSecond * 2, updated: now)
        Self.refill(&bucket, rate: perSecond, burst: perSecond * 2, now: now)
        guard bucket.tokens >= 1 else {
            sources[source] = bucket
            return false
        }
        bucket.tokens -= 1
        if sources[source] == nil && sources.count >= capacity { trim(now: now) }
        sources[source] = bucket
        return true
    }

    /// A user authenticated from `source`: it gets the larger bucket.
    mutating func authenticated(source: String, now: Date) {
        let source = AddressBlock.key(for: source)
        if knownGood[source] == nil && knownGood.count >= capacity {
            knownGood = knownGood.filter { now.timeIntervalSince($0.value) < knownGoodTime }
            if knownGood.count >= capacity { knownGood.removeAll() }
        }
        knownGood[source] = now
    }

    private static func refill(_ bucket: inout Bucket, rate: Double, burst: Double, now: Date) {
        let elapsed = max(0, now.timeIntervalSince(bucket.updated))
        bucket.tokens = min(burst, bucket.tokens + elapsed * rate)
        bucket.updated = now
    }

    /// Forgets sources whose bucket has refilled (they are back to the
    /// start, 2 s after their last request); if none has, forgets them all.
    private mutating func trim(now: Date) {
        sources = sources.filter { now.timeIntervalSince($0.value.updated) < 2 }
        if sources.count >= capacity { sources.removeAll() }
    }
}
