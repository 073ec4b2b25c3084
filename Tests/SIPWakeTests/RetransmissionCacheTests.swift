import Foundation
@testable import SIPWake
import Testing

/// `RetransmissionCache`'s table, row by row, with the time passed in.
@Suite struct RetransmissionCacheTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    func at(_ seconds: TimeInterval) -> Date { t0.addingTimeInterval(seconds) }

    @Test func anAnswerIsKeptForItsLifetimeAndNoLonger() {
        var cache = RetransmissionCache<String, Int>(lifetime: 32, maxEntries: 10, maxBytes: 1000)
        cache.store(200, for: "a", bytes: 10, now: t0)
        #expect(cache.answer(for: "a", now: t0) == 200)
        #expect(cache.answer(for: "a", now: at(31.9)) == 200)
        #expect(cache.answer(for: "a", now: at(32)) == nil, "not answered past its lifetime, even before expire")
        #expect(cache.answer(for: "b", now: t0) == nil)
        #expect(cache.count == 1)
        #expect(cache.expire(now: at(32)) == 1)
        #expect(cache.count == 0)
        #expect(cache.bytes == 0)
        #expect(cache.evicted == 0, "expiry is not eviction")
    }

    @Test func expiryTakesOnlyTheOldAnswers() {
        var cache = RetransmissionCache<String, Int>(lifetime: 32, maxEntries: 10, maxBytes: 1000)
        for i in 0..<5 { cache.store(i, for: "k\(i)", bytes: 10, now: at(Double(i) * 5)) }
        #expect(cache.expire(now: at(40)) == 2, "stored at 0 s and 5 s")
        #expect(cache.count == 3)
        #expect(cache.bytes == 30)
        #expect(cache.answer(for: "k2", now: at(40)) == 2)
        #expect(cache.answer(for: "k1", now: at(40)) == nil)
    }

    @Test func storingExpiresTheOldAnswersFirst() {
        var cache = RetransmissionCache<String, Int>(lifetime: 32, maxEntries: 2, maxBytes: 1000)
        cache.store(1, for: "a", bytes: 10, now: t0)
        cache.store(2, for: "b", bytes: 10, now: t0)
        cache.store(3, for: "c", bytes: 10, now: at(32))
        #expect(cache.count == 1)
        #expect(cache.evicted == 0, "a and b had had their time")
    }

    @Test func whenFullTheOldestAnswersAreEvictedFirst() {
        var cache = RetransmissionCache<String, Int>(lifetime: 32, maxEntries: 3, maxBytes: 1000)
        for i in 0..<5 { cache.store(i, for: "k\(i)", bytes: 10, now: at(Double(i))) }
        #expect(cache.count == 3)
        #expect(cache.evicted == 2)
        #expect(cache.answer(for: "k0", now: at(5)) == nil)
        #expect(cache.answer(for: "k1", now: at(5)) == nil)
        #expect([2, 3, 4].map { cache.answer(for: "k\($0)", now: at(5)) } == [2, 3, 4])
    }

    @Test func bytesAreBoundedAsWellAsEntries() {
        var cache = RetransmissionCache<String, Int>(lifetime: 32, maxEntries: 100, maxBytes: 100)
        cache.store(1, for: "a", bytes: 40, now: t0)
        cache.store(2, for: "b", bytes: 40, now: t0)
        cache.store(3, for: "c", bytes: 40, now: t0)
        #expect(cache.count == 2)
        #expect(cache.bytes == 80)
        #expect(cache.evicted == 1)
        #expect(cache.answer(for: "a", now: t0) == nil)
        cache.store(4, for: "huge", bytes: 101, now: t0)
        #expect(cache.answer(for: "huge", now: t0) == nil, "larger than the whole cache: not kept")
        #expect(cache.count == 2, "and nothing evicted for it")
    }

    @Test func aKeyStoredAgainIsReplacedAndKeepsItsAge() {
        var cache = RetransmissionCache<String, Int>(lifetime: 32, maxEntries: 10, maxBytes: 1000)
        cache.store(1, for: "a", bytes: 10, now: t0)
        cache.store(2, for: "a", bytes: 30, now: at(10))
        #expect(cache.count == 1)
        #expect(cache.bytes == 30)
        #expect(cache.answer(for: "a", now: at(31)) == 2)
        #expect(cache.expire(now: at(32)) == 1)
    }

    @Test func aFloodOfAnswersNeverPassesTheBounds() {
        var cache = RetransmissionCache<Int, Int>(lifetime: 32, maxEntries: 1000, maxBytes: 50_000)
        for i in 0..<20_000 {
            cache.store(i, for: i, bytes: 10 + i % 200, now: at(Double(i) / 2_000))
            #expect(cache.count <= 1000 && cache.bytes <= 50_000)
        }
        #expect(cache.answer(for: 19_999, now: at(10)) == 19_999, "the newest is always kept")
    }
}
