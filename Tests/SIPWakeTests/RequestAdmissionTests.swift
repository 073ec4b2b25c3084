import Foundation
@testable import SIPWake
import Testing

/// `RequestAdmission`'s table, row by row.
@Suite struct RequestAdmissionTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func aSourceGetsTwiceItsRateAsABurstThenItsRate() {
        var admission = RequestAdmission(perSource: 10, global: 0, now: t0)
        let admitted = (0..<100).filter { _ in admission.admit(source: "a", exempt: false, overloaded: false, now: t0) == .admit }
        #expect(admitted.count == 20)
        #expect(admission.admit(source: "a", exempt: false, overloaded: false, now: t0) == .dropSourceLimit)
        #expect(admission.admit(source: "b", exempt: false, overloaded: false, now: t0) == .admit, "other sources are not affected")
        let later = t0.addingTimeInterval(0.5)
        let refilled = (0..<100).filter { _ in admission.admit(source: "a", exempt: false, overloaded: false, now: later) == .admit }
        #expect(refilled.count == 5)
    }

    @Test func trustedPeersAndEdgesAreNeverLimited() {
        var admission = RequestAdmission(perSource: 1, global: 1, now: t0)
        for _ in 0..<1000 {
            #expect(admission.admit(source: "pbx", exempt: true, overloaded: true, now: t0) == .admit)
        }
    }

    @Test func theGlobalBucketCapsManySources() {
        var admission = RequestAdmission(perSource: 100, global: 50, now: t0)
        let admitted = (0..<1000).filter { admission.admit(source: "10.0.0.\($0 % 250)", exempt: false, overloaded: false, now: t0) == .admit }
        #expect(admitted.count == 50)
        #expect(admission.admit(source: "fresh", exempt: false, overloaded: false, now: t0) == .dropGlobalLimit)
    }

    /// A source where a user authenticated gets ten times a stranger's rate
    /// (or the strangers' global rate, when larger), outside the strangers'
    /// global bucket, but not an unlimited one: a UDP source address can be
    /// spoofed.
    @Test func aSourceWhereAUserAuthenticatedGetsTenTimesTheRate() {
        var admission = RequestAdmission(perSource: 10, global: 1, now: t0)
        admission.authenticated(source: "nat", now: t0)
        let admitted = (0..<10_000).filter { _ in admission.admit(source: "nat", exempt: false, overloaded: false, now: t0) == .admit }
        #expect(admitted.count == 200, "bursts of twice 10 × 10 a second")
        #expect(admission.admit(source: "nat", exempt: false, overloaded: false, now: t0) == .dropSourceLimit)
        let later = t0.addingTimeInterval(1)
        let refilled = (0..<10_000).filter { _ in admission.admit(source: "nat", exempt: false, overloaded: true, now: later) == .admit }
        #expect(refilled.count == 100, "100 a second, overloaded or not")
        #expect(RequestAdmission(perSource: 100, global: 5000, now: t0).knownGoodRate == 5000, "the defaults: the global rate")
    }

    @Test func anOverloadedLoopDropsStrangersButNotKnownGoodSources() {
        var admission = RequestAdmission(perSource: 10, global: 100, now: t0)
        admission.authenticated(source: "phone", now: t0)
        #expect(admission.admit(source: "stranger", exempt: false, overloaded: true, now: t0) == .dropOverload)
        #expect(admission.admit(source: "phone", exempt: false, overloaded: true, now: t0) == .admit)
        let later = t0.addingTimeInterval(3601)
        #expect(admission.admit(source: "phone", exempt: false, overloaded: true, now: later) == .dropOverload,
                "known good for an hour only")
    }

    @Test func oneSlash64SharesOneBucket() {
        var admission = RequestAdmission(perSource: 10, global: 0, now: t0)
        let admitted = (0..<100).filter { admission.admit(source: "2001:db8::\($0 + 1)", exempt: false, overloaded: false, now: t0) == .admit }
        #expect(admitted.count == 20, "100 addresses of one /64 are one sender")
        #expect(admission.admit(source: "2001:db8:0:1::1", exempt: false, overloaded: false, now: t0) == .admit)
    }
}
