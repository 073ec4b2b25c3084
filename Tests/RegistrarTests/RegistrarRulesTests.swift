import Model
import XCTest
@testable import Registrar

final class RegistrarRulesTests: XCTestCase {
    typealias F = RegisterFixture
    let policy = RegistrarPolicy(minExpires: 60, maxExpires: 3600, defaultExpires: 1800, maxBindingsPerAOR: 3)
    let t0 = RegisterFixture.t0

    private func process(_ request: RegisterRequest, current: [Binding] = [], at now: Date? = nil, policy: RegistrarPolicy? = nil) -> RegisterOutcome {
        RegistrarRules.process(request, current: current, policy: policy ?? self.policy, now: now ?? t0)
    }

    // MARK: adding and refreshing

    func testNewContactIsAddedWithAllRequestFields() throws {
        let request = F.request(contacts: [F.contact("a", expires: 600, q: 700, instance: "<urn:uuid:1>", regID: 1)],
                                path: ["<sip:edge1;lr>"], source: F.otherSource)
        let result = try XCTUnwrap(F.accepted(process(request)))
        let expected = Binding(
            aor: "alice", contact: "sip:a@198.51.100.7:5060", instanceID: "<urn:uuid:1>", regID: 1,
            callID: "call-1", cseq: 1, q: 700, expiresAt: t0.addingTimeInterval(600), path: ["<sip:edge1;lr>"],
            source: F.otherSource, userAgent: "Groundwire/1.0", registeredAt: t0, updatedAt: t0
        )
        XCTAssertEqual(result.changes, [.added(expected)])
        XCTAssertEqual(result.bindings, [expected])
    }

    func testRefreshKeepsRegisteredAtAndTakesNewValues() throws {
        let old = F.binding(contact: "a", cseq: 5, q: 100, expiresAt: t0.addingTimeInterval(600))
        let later = t0.addingTimeInterval(300)
        let request = F.request(cseq: 6, contacts: [F.contact("a", expires: 900, q: 800)], path: ["<sip:edge2;lr>"],
                                source: F.otherSource, userAgent: "Groundwire/2.0")
        let result = try XCTUnwrap(F.accepted(process(request, current: [old], at: later)))
        guard case .refreshed(let was, let new)? = result.changes.first, result.changes.count == 1 else {
            return XCTFail("expected one refresh, got \(result.changes)")
        }
        XCTAssertEqual(was, old)
        XCTAssertEqual(new.registeredAt, t0)
        XCTAssertEqual(new.updatedAt, later)
        XCTAssertEqual(new.expiresAt, later.addingTimeInterval(900))
        XCTAssertEqual(new.cseq, 6)
        XCTAssertEqual(new.q, 800)
        XCTAssertEqual(new.path, ["<sip:edge2;lr>"])
        XCTAssertEqual(new.source, F.otherSource)
        XCTAssertEqual(new.userAgent, "Groundwire/2.0")
        XCTAssertEqual(result.bindings, [new])
    }

    func testInstanceIDReregistrationWithNewContactURIReplacesWithoutDuplicate() throws {
        let old = F.binding(contact: "wifi", instance: "<urn:uuid:1>", cseq: 1, expiresAt: t0.addingTimeInterval(600))
        let request = F.request(cseq: 2, contacts: [F.contact("lte", expires: 600, instance: "<urn:uuid:1>")])
        let result = try XCTUnwrap(F.accepted(process(request, current: [old])))
        XCTAssertEqual(result.bindings.count, 1)
        XCTAssertEqual(result.bindings.first?.contact, "sip:lte@198.51.100.7:5060")
        guard case .refreshed(let was, let new)? = result.changes.first, result.changes.count == 1 else {
            return XCTFail("expected one refresh, got \(result.changes)")
        }
        XCTAssertEqual(was.contact, "sip:wifi@198.51.100.7:5060")
        XCTAssertEqual(new.contact, "sip:lte@198.51.100.7:5060")
    }

    func testContactURIMatchIgnoresHostCase() throws {
        let old = F.binding(contact: "a", cseq: 1, expiresAt: t0.addingTimeInterval(600))
        let request = F.request(cseq: 2, contacts: [ContactSpec(uri: "SIP:a@198.51.100.7:5060", expires: 600)])
        let result = try XCTUnwrap(F.accepted(process(request, current: [old])))
        XCTAssertEqual(result.bindings.count, 1)
        guard case .refreshed? = result.changes.first else { return XCTFail("\(result.changes)") }
    }

    func testCallIDChangeReplacesEvenWithLowerCSeq() throws {
        let old = F.binding(contact: "a", callID: "before-reboot", cseq: 900, expiresAt: t0.addingTimeInterval(600))
        let later = t0.addingTimeInterval(60)
        let request = F.request(callID: "after-reboot", cseq: 1, contacts: [F.contact("a", expires: 600)])
        let result = try XCTUnwrap(F.accepted(process(request, current: [old], at: later)))
        guard case .refreshed(let was, let new)? = result.changes.first, result.changes.count == 1 else {
            return XCTFail("expected one replacement, got \(result.changes)")
        }
        XCTAssertEqual(was, old)
        XCTAssertEqual(new.callID, "after-reboot")
        XCTAssertEqual(new.cseq, 1)
        XCTAssertEqual(new.registeredAt, later, "a new Call-ID is a new registration")
        XCTAssertEqual(result.bindings, [new])
    }

    // MARK: CSeq ordering

    func testSameCallIDWithEqualCSeqIs500() {
        let old = F.binding(contact: "a", cseq: 7, expiresAt: t0.addingTimeInterval(600))
        let outcome = process(F.request(cseq: 7, contacts: [F.contact("a", expires: 600)]), current: [old])
        XCTAssertEqual(outcome, .rejected(status: 500, reason: "Out of order CSeq", minExpires: nil))
    }

    func testSameCallIDWithLowerCSeqIs500EvenForRemoval() {
        let old = F.binding(contact: "a", cseq: 7, expiresAt: t0.addingTimeInterval(600))
        let outcome = process(F.request(cseq: 6, contacts: [F.contact("a", expires: 0)]), current: [old])
        XCTAssertEqual(outcome, .rejected(status: 500, reason: "Out of order CSeq", minExpires: nil))
    }

    func testOutOfOrderContactRejectsWholeRequest() {
        let old = F.binding(contact: "a", cseq: 7, expiresAt: t0.addingTimeInterval(600))
        let request = F.request(cseq: 7, contacts: [F.contact("new", expires: 600), F.contact("a", expires: 600)])
        XCTAssertEqual(process(request, current: [old]), .rejected(status: 500, reason: "Out of order CSeq", minExpires: nil))
    }

    // MARK: intervals

    func testIntervalBelowMinExpiresIs423WithMinExpires() {
        let outcome = process(F.request(contacts: [F.contact("a", expires: 59)]))
        XCTAssertEqual(outcome, .rejected(status: 423, reason: "Interval Too Brief", minExpires: 60))
    }

    func testIntervalEqualToMinExpiresIsAccepted() throws {
        let result = try XCTUnwrap(F.accepted(process(F.request(contacts: [F.contact("a", expires: 60)]))))
        XCTAssertEqual(result.bindings.first?.expiresAt, t0.addingTimeInterval(60))
    }

    func testBriefExpiresHeaderIs423() {
        let outcome = process(F.request(expires: 30, contacts: [F.contact("a")]))
        XCTAssertEqual(outcome, .rejected(status: 423, reason: "Interval Too Brief", minExpires: 60))
    }

    func testOneBriefContactRejectsWholeRequest() {
        let request = F.request(contacts: [F.contact("a", expires: 600), F.contact("b", expires: 10)])
        XCTAssertEqual(process(request), .rejected(status: 423, reason: "Interval Too Brief", minExpires: 60))
    }

    func testNegativeExpiresIs400() {
        XCTAssertEqual(process(F.request(contacts: [F.contact("a", expires: -1)])),
                       .rejected(status: 400, reason: "Invalid expires", minExpires: nil))
    }

    func testLongIntervalIsClampedToMaxExpires() throws {
        let result = try XCTUnwrap(F.accepted(process(F.request(contacts: [F.contact("a", expires: 86_400)]))))
        XCTAssertEqual(result.bindings.first?.expiresAt, t0.addingTimeInterval(3600))
    }

    func testDefaultExpiresWhenNoParamAndNoHeader() throws {
        let result = try XCTUnwrap(F.accepted(process(F.request(expires: nil, contacts: [F.contact("a")]))))
        XCTAssertEqual(result.bindings.first?.expiresAt, t0.addingTimeInterval(1800))
    }

    func testExpiresHeaderUsedWhenNoContactParam() throws {
        let result = try XCTUnwrap(F.accepted(process(F.request(expires: 120, contacts: [F.contact("a")]))))
        XCTAssertEqual(result.bindings.first?.expiresAt, t0.addingTimeInterval(120))
    }

    func testContactParamOverridesExpiresHeader() throws {
        let result = try XCTUnwrap(F.accepted(process(F.request(expires: 120, contacts: [F.contact("a", expires: 300)]))))
        XCTAssertEqual(result.bindings.first?.expiresAt, t0.addingTimeInterval(300))
    }

    // MARK: removal

    func testExpiresZeroRemovesMatchingBinding() throws {
        let keep = F.binding(contact: "b", expiresAt: t0.addingTimeInterval(600))
        let old = F.binding(contact: "a", cseq: 1, expiresAt: t0.addingTimeInterval(600))
        let result = try XCTUnwrap(F.accepted(process(F.request(cseq: 2, contacts: [F.contact("a", expires: 0)]), current: [old, keep])))
        XCTAssertEqual(result.changes, [.removed(old, reason: .unregistered)])
        XCTAssertEqual(result.bindings, [keep])
    }

    func testExpiresZeroHeaderRemovesContactWithoutParam() throws {
        let old = F.binding(contact: "a", cseq: 1, expiresAt: t0.addingTimeInterval(600))
        let result = try XCTUnwrap(F.accepted(process(F.request(cseq: 2, expires: 0, contacts: [F.contact("a")]), current: [old])))
        XCTAssertEqual(result.changes, [.removed(old, reason: .unregistered)])
        XCTAssertEqual(result.bindings, [])
    }

    func testExpiresZeroForUnknownContactIsAcceptedWithoutChange() throws {
        let keep = F.binding(contact: "b", expiresAt: t0.addingTimeInterval(600))
        let result = try XCTUnwrap(F.accepted(process(F.request(contacts: [F.contact("a", expires: 0)]), current: [keep])))
        XCTAssertEqual(result.changes, [])
        XCTAssertEqual(result.bindings, [keep])
    }

    // MARK: wildcard

    func testWildcardRemovesEveryBinding() throws {
        let a = F.binding(contact: "a", callID: "x", cseq: 50, expiresAt: t0.addingTimeInterval(600), updatedAt: t0)
        let b = F.binding(contact: "b", callID: "call-1", cseq: 3, expiresAt: t0.addingTimeInterval(600), updatedAt: t0.addingTimeInterval(1))
        let result = try XCTUnwrap(F.accepted(process(F.request(cseq: 4, expires: 0, contacts: [], wildcard: true), current: [b, a])))
        XCTAssertEqual(result.changes, [.removed(a, reason: .unregistered), .removed(b, reason: .unregistered)])
        XCTAssertEqual(result.bindings, [])
    }

    func testWildcardWithOtherContactIs400() {
        let outcome = process(F.request(expires: 0, contacts: [F.contact("a")], wildcard: true))
        XCTAssertEqual(outcome, .rejected(status: 400, reason: "Invalid wildcard Contact", minExpires: nil))
    }

    func testWildcardWithoutExpiresHeaderIs400() {
        let outcome = process(F.request(expires: nil, contacts: [], wildcard: true))
        XCTAssertEqual(outcome, .rejected(status: 400, reason: "Invalid wildcard Contact", minExpires: nil))
    }

    func testWildcardWithNonZeroExpiresIs400() {
        let outcome = process(F.request(expires: 3600, contacts: [], wildcard: true))
        XCTAssertEqual(outcome, .rejected(status: 400, reason: "Invalid wildcard Contact", minExpires: nil))
    }

    func testWildcardOutOfOrderIs500AndRemovesNothing() {
        let a = F.binding(contact: "a", callID: "other", cseq: 1, expiresAt: t0.addingTimeInterval(600))
        let b = F.binding(contact: "b", callID: "call-1", cseq: 9, expiresAt: t0.addingTimeInterval(600))
        let outcome = process(F.request(cseq: 9, expires: 0, contacts: [], wildcard: true), current: [a, b])
        XCTAssertEqual(outcome, .rejected(status: 500, reason: "Out of order CSeq", minExpires: nil))
    }

    // MARK: query, duplicates, ordering, Path

    func testRequestWithoutContactsIsQuery() throws {
        let a = F.binding(contact: "a", expiresAt: t0.addingTimeInterval(600))
        let result = try XCTUnwrap(F.accepted(process(F.request(contacts: []), current: [a])))
        XCTAssertEqual(result.changes, [])
        XCTAssertEqual(result.bindings, [a])
    }

    func testDuplicateContactsLastOneWins() throws {
        let request = F.request(contacts: [F.contact("a", expires: 600, q: 100), F.contact("a", expires: 900, q: 900)])
        let result = try XCTUnwrap(F.accepted(process(request)))
        XCTAssertEqual(result.changes.count, 1)
        XCTAssertEqual(result.bindings.count, 1)
        XCTAssertEqual(result.bindings.first?.q, 900)
        XCTAssertEqual(result.bindings.first?.expiresAt, t0.addingTimeInterval(900))
    }

    func testDuplicateContactsLastRemovalWins() throws {
        let request = F.request(contacts: [F.contact("a", expires: 600), F.contact("a", expires: 0)])
        let result = try XCTUnwrap(F.accepted(process(request)))
        XCTAssertEqual(result.changes, [])
        XCTAssertEqual(result.bindings, [])
    }

    func testBindingsSortedByQDescendingThenMostRecentlyUpdated() throws {
        let older = F.binding(contact: "older", callID: "x", q: 500, expiresAt: t0.addingTimeInterval(900), updatedAt: t0)
        let newer = F.binding(contact: "newer", callID: "y", q: 500, expiresAt: t0.addingTimeInterval(900), updatedAt: t0.addingTimeInterval(5))
        let request = F.request(contacts: [F.contact("low", expires: 600, q: 100), F.contact("none", expires: 600), F.contact("high", expires: 600, q: 900)])
        let result = try XCTUnwrap(F.accepted(process(request, current: [older, newer], at: t0.addingTimeInterval(10), policy: RegistrarPolicy(maxBindingsPerAOR: 10))))
        XCTAssertEqual(result.bindings.map(\.contact).map { $0.split(separator: "@")[0] },
                       ["sip:none", "sip:high", "sip:newer", "sip:older", "sip:low"].map { Substring($0) })
    }

    func testPathIsStoredInOrder() throws {
        let path = ["<sip:edge-a.example.net;lr>", "<sip:edge-b.example.net;lr;ob>"]
        let result = try XCTUnwrap(F.accepted(process(F.request(contacts: [F.contact("a", expires: 600)], path: path))))
        XCTAssertEqual(result.bindings.first?.path, path)
    }

    func testExpiredAndForeignCurrentBindingsAreIgnored() throws {
        let expired = F.binding(contact: "a", cseq: 99, expiresAt: t0)
        let foreign = F.binding(aor: "bob", contact: "b", expiresAt: t0.addingTimeInterval(600))
        let result = try XCTUnwrap(F.accepted(process(F.request(cseq: 1, contacts: [F.contact("a", expires: 600)]), current: [expired, foreign])))
        guard case .added(let added)? = result.changes.first, result.changes.count == 1 else {
            return XCTFail("expected an addition, got \(result.changes)")
        }
        XCTAssertEqual(result.bindings, [added])
    }

    // MARK: cap

    func testCapEvictsLeastRecentlyUpdatedUntouchedBindings() throws {
        let oldest = F.binding(contact: "oldest", callID: "c1", expiresAt: t0.addingTimeInterval(3000), updatedAt: t0)
        let middle = F.binding(contact: "middle", callID: "c2", expiresAt: t0.addingTimeInterval(3000), updatedAt: t0.addingTimeInterval(10))
        let recent = F.binding(contact: "recent", callID: "c3", expiresAt: t0.addingTimeInterval(3000), updatedAt: t0.addingTimeInterval(20))
        let now = t0.addingTimeInterval(30)
        let request = F.request(callID: "c4", contacts: [F.contact("new1", expires: 600), F.contact("new2", expires: 600)])
        let result = try XCTUnwrap(F.accepted(process(request, current: [recent, oldest, middle], at: now)))
        XCTAssertEqual(result.bindings.count, 3)
        XCTAssertEqual(Array(result.changes.suffix(2)), [.removed(oldest, reason: .evicted), .removed(middle, reason: .evicted)])
        XCTAssertEqual(Set(result.bindings.map(\.contact)),
                       ["sip:new1@198.51.100.7:5060", "sip:new2@198.51.100.7:5060", "sip:recent@198.51.100.7:5060"])
    }

    func testCapDoesNotEvictBindingRefreshedByRequest() throws {
        let oldest = F.binding(contact: "oldest", callID: "c1", cseq: 1, expiresAt: t0.addingTimeInterval(3000), updatedAt: t0)
        let b = F.binding(contact: "b", callID: "c2", expiresAt: t0.addingTimeInterval(3000), updatedAt: t0.addingTimeInterval(10))
        let c = F.binding(contact: "c", callID: "c3", expiresAt: t0.addingTimeInterval(3000), updatedAt: t0.addingTimeInterval(20))
        let request = F.request(callID: "c1", cseq: 2, contacts: [F.contact("oldest", expires: 600), F.contact("new", expires: 600)])
        let result = try XCTUnwrap(F.accepted(process(request, current: [oldest, b, c], at: t0.addingTimeInterval(30))))
        XCTAssertEqual(result.changes.last, .removed(b, reason: .evicted))
        XCTAssertEqual(Set(result.bindings.map(\.contact)),
                       ["sip:oldest@198.51.100.7:5060", "sip:new@198.51.100.7:5060", "sip:c@198.51.100.7:5060"])
    }

    func testRequestAloneExceedingCapIs403() {
        let request = F.request(contacts: (1...4).map { F.contact("d\($0)", expires: 600) })
        XCTAssertEqual(process(request), .rejected(status: 403, reason: "Too many contacts", minExpires: nil))
    }
}
