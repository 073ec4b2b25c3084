import XCTest
@testable import Registrar

final class LocationTableTests: XCTestCase {
    typealias F = RegisterFixture
    let policy = RegistrarPolicy(minExpires: 60, maxExpires: 3600, defaultExpires: 3600, maxBindingsPerAOR: 10)
    let t0 = RegisterFixture.t0

    func testRegisterAppliesAcceptedChanges() throws {
        var table = LocationTable()
        let outcome = table.register(F.request(contacts: [F.contact("a", expires: 600)]), policy: policy, now: t0)
        let result = try XCTUnwrap(F.accepted(outcome))
        XCTAssertEqual(table.count, 1)
        XCTAssertEqual(table.bindings(of: "alice", now: t0), result.bindings)
        XCTAssertEqual(table.bindings(of: "bob", now: t0), [])
    }

    func testRejectedRegisterChangesNothing() {
        var table = LocationTable()
        _ = table.register(F.request(cseq: 5, contacts: [F.contact("a", expires: 600)]), policy: policy, now: t0)
        let before = table.allBindings()
        let outcome = table.register(F.request(cseq: 5, contacts: [F.contact("a", expires: 0), F.contact("b", expires: 600)]), policy: policy, now: t0)
        XCTAssertEqual(outcome, .rejected(status: 500, reason: "Out of order CSeq", minExpires: nil))
        XCTAssertEqual(table.allBindings(), before)
    }

    func testRefreshDoesNotDuplicate() {
        var table = LocationTable()
        _ = table.register(F.request(cseq: 1, contacts: [F.contact("a", expires: 600)]), policy: policy, now: t0)
        _ = table.register(F.request(cseq: 2, contacts: [F.contact("a", expires: 600)]), policy: policy, now: t0.addingTimeInterval(100))
        XCTAssertEqual(table.count, 1)
        XCTAssertEqual(table.allBindings().first?.cseq, 2)
    }

    func testBindingsOfExcludesExpired() {
        var table = LocationTable()
        table.load([F.binding(contact: "a", expiresAt: t0.addingTimeInterval(10)), F.binding(contact: "b", expiresAt: t0.addingTimeInterval(20))])
        XCTAssertEqual(table.bindings(of: "alice", now: t0.addingTimeInterval(10)).map(\.contact), ["sip:b@198.51.100.7:5060"])
        XCTAssertEqual(table.count, 2, "reading does not remove")
    }

    func testExpireRemovesDueBindingsAtInjectedTime() {
        var table = LocationTable()
        let a = F.binding(contact: "a", expiresAt: t0.addingTimeInterval(60))
        let b = F.binding(aor: "bob", contact: "b", expiresAt: t0.addingTimeInterval(30))
        let c = F.binding(contact: "c", expiresAt: t0.addingTimeInterval(120))
        table.load([a, b, c])
        XCTAssertEqual(table.expire(now: t0.addingTimeInterval(29)), [])
        XCTAssertEqual(table.expire(now: t0.addingTimeInterval(60)), [.removed(b, reason: .expired), .removed(a, reason: .expired)])
        XCTAssertEqual(table.count, 1)
        XCTAssertEqual(table.allBindings(), [c])
        XCTAssertEqual(table.expire(now: t0.addingTimeInterval(60)), [])
    }

    func testExpireSkipsBindingRefreshedSinceItWasIndexed() {
        var table = LocationTable()
        _ = table.register(F.request(cseq: 1, contacts: [F.contact("a", expires: 60)]), policy: policy, now: t0)
        _ = table.register(F.request(cseq: 2, contacts: [F.contact("a", expires: 600)]), policy: policy, now: t0.addingTimeInterval(50))
        XCTAssertEqual(table.expire(now: t0.addingTimeInterval(61)), [])
        XCTAssertEqual(table.count, 1)
        XCTAssertEqual(table.expire(now: t0.addingTimeInterval(650)).count, 1)
        XCTAssertEqual(table.count, 0)
    }

    func testExpireHonoursRefreshToShorterInterval() {
        var table = LocationTable()
        _ = table.register(F.request(cseq: 1, contacts: [F.contact("a", expires: 3600)]), policy: policy, now: t0)
        _ = table.register(F.request(cseq: 2, contacts: [F.contact("a", expires: 60)]), policy: policy, now: t0)
        XCTAssertEqual(table.expire(now: t0.addingTimeInterval(60)).count, 1)
        XCTAssertEqual(table.count, 0)
    }

    func testExpireIsCheapWhenNothingIsDue() {
        var table = LocationTable()
        let bindings = (0..<100_000).map { F.binding(aor: "u\($0)", contact: "d\($0)", expiresAt: t0.addingTimeInterval(3600 + Double($0 % 100))) }
        table.load(bindings)
        XCTAssertEqual(table.count, 100_000)
        // A full scan per call would examine 100k bindings 1k times (10^8
        // visits); the heap answers from its root.
        let start = ContinuousClock.now
        for second in 0..<1_000 {
            XCTAssertTrue(table.expire(now: t0.addingTimeInterval(Double(second % 3600))).isEmpty)
        }
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(1))
        XCTAssertEqual(table.count, 100_000)
    }

    func testExpiryIndexStaysProportionalUnderRefreshes() {
        var table = LocationTable()
        for cseq in 1...5_000 {
            _ = table.register(F.request(cseq: UInt32(cseq), contacts: [F.contact("a", expires: 600)]), policy: policy,
                               now: t0.addingTimeInterval(Double(cseq)))
        }
        XCTAssertEqual(table.count, 1)
        XCTAssertLessThanOrEqual(table.expiryIndexCount, 2 * table.count + 1024 + 1)
    }

    func testLoadWithNowDropsExpiredBindings() {
        var table = LocationTable()
        let live = F.binding(contact: "a", expiresAt: t0.addingTimeInterval(1))
        table.load([F.binding(contact: "gone", expiresAt: t0), live], now: t0)
        XCTAssertEqual(table.count, 1)
        XCTAssertEqual(table.allBindings(), [live])
    }

    func testLoadWithoutNowReportsExpiredOnFirstSweep() {
        var table = LocationTable()
        let gone = F.binding(contact: "gone", expiresAt: t0)
        table.load([gone])
        XCTAssertEqual(table.expire(now: t0), [.removed(gone, reason: .expired)])
        XCTAssertEqual(table.count, 0)
    }

    func testRegisterReportsUnsweptExpiredBindingBeforeReAdding() throws {
        var table = LocationTable()
        let lapsed = F.binding(contact: "a", cseq: 50, expiresAt: t0)
        table.load([lapsed])
        let result = try XCTUnwrap(F.accepted(table.register(F.request(cseq: 1, contacts: [F.contact("a", expires: 600)]), policy: policy, now: t0)))
        XCTAssertEqual(result.changes.count, 2)
        XCTAssertEqual(result.changes.first, .removed(lapsed, reason: .expired))
        guard case .added(let added) = result.changes[1] else { return XCTFail("\(result.changes)") }
        XCTAssertEqual(table.allBindings(), [added])
        XCTAssertEqual(table.expire(now: t0), [], "the lapsed binding's index entry is stale")
    }

    func testApplyAddsRefreshesAndRemoves() {
        var table = LocationTable()
        let a = F.binding(contact: "a", expiresAt: t0.addingTimeInterval(60))
        let b = F.binding(contact: "b", expiresAt: t0.addingTimeInterval(60))
        var a2 = a
        a2.cseq = 2
        a2.expiresAt = t0.addingTimeInterval(600)
        table.apply([.added(a), .added(b), .refreshed(old: a, new: a2), .removed(b, reason: .unregistered)])
        XCTAssertEqual(table.count, 1)
        XCTAssertEqual(table.allBindings(), [a2])
        XCTAssertEqual(table.expire(now: t0.addingTimeInterval(60)), [])
    }

    func testWildcardEmptiesAOROnly() {
        var table = LocationTable()
        table.load([F.binding(contact: "a", callID: "x", expiresAt: t0.addingTimeInterval(60)),
                    F.binding(contact: "b", callID: "y", expiresAt: t0.addingTimeInterval(60)),
                    F.binding(aor: "bob", contact: "c", expiresAt: t0.addingTimeInterval(60))])
        _ = table.register(F.request(cseq: 2, expires: 0, contacts: [], wildcard: true), policy: policy, now: t0)
        XCTAssertEqual(table.count, 1)
        XCTAssertEqual(table.bindings(of: "alice", now: t0), [])
        XCTAssertEqual(table.bindings(of: "bob", now: t0).count, 1)
    }
}
