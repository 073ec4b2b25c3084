import Foundation
@testable import Registrar
import Testing

/// `AuthFailureLimiter`'s table, row by row.
@Suite struct AuthFailureLimiterTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    let limits = AuthFailureLimiter.Limits(perSource: 4, perUser: 2, window: 60, blockTime: 300)

    @Test func aUserIsBlockedFromOneAddressOnlyAfterItsFailures() {
        var limiter = AuthFailureLimiter(limits: limits)
        #expect(limiter.recordFailure(source: "192.0.2.1", user: "alice", now: t0) == .counted)
        #expect(limiter.check(source: "192.0.2.1", user: "alice", now: t0) == .allowed)
        #expect(limiter.recordFailure(source: "192.0.2.1", user: "alice", now: t0) == .blockedPair)
        #expect(limiter.check(source: "192.0.2.1", user: "alice", now: t0) == .blocked(retryAfter: 300))
        #expect(limiter.check(source: "192.0.2.9", user: "alice", now: t0) == .allowed, "alice elsewhere is never affected")
        #expect(limiter.check(source: "192.0.2.1", user: "bob", now: t0) == .allowed, "bob at that address is not")
        #expect(limiter.check(source: "192.0.2.1", user: "ALICE", now: t0.addingTimeInterval(299)) == .blocked(retryAfter: 1))
        #expect(limiter.check(source: "192.0.2.1", user: "alice", now: t0.addingTimeInterval(300)) == .allowed)
    }

    @Test func anAddressGuessingManyUsersIsBlockedExceptForItsKnownGoodUsers() {
        var limiter = AuthFailureLimiter(limits: limits)
        limiter.recordSuccess(source: "192.0.2.1", user: "carol", now: t0)
        for (index, user) in ["u1", "u2", "u3"].enumerated() {
            #expect(limiter.recordFailure(source: "192.0.2.1", user: user, now: t0.addingTimeInterval(Double(index))) == .counted)
        }
        #expect(limiter.recordFailure(source: "192.0.2.1", user: "u4", now: t0.addingTimeInterval(3)) == .blockedSource)
        #expect(limiter.check(source: "192.0.2.1", user: "u5", now: t0.addingTimeInterval(4)) == .blocked(retryAfter: 299))
        #expect(limiter.check(source: "192.0.2.1", user: "carol", now: t0.addingTimeInterval(4)) == .allowed,
                "a phone that registered from behind the same NAT keeps working")
        #expect(limiter.check(source: "192.0.2.2", user: "u5", now: t0.addingTimeInterval(4)) == .allowed)
    }

    @Test func withoutASourceLimitOnlyPairsAreBlocked() {
        var limiter = AuthFailureLimiter(limits: .init(perSource: 0, perUser: 2, window: 60, blockTime: 300))
        for index in 0..<50 { _ = limiter.recordFailure(source: "192.0.2.1", user: "u\(index)", now: t0) }
        #expect(limiter.check(source: "192.0.2.1", user: "newcomer", now: t0) == .allowed)
    }

    @Test func failuresOutsideTheWindowStartOver() {
        var limiter = AuthFailureLimiter(limits: limits)
        _ = limiter.recordFailure(source: "192.0.2.1", user: "alice", now: t0)
        #expect(limiter.recordFailure(source: "192.0.2.1", user: "alice", now: t0.addingTimeInterval(61)) == .counted)
        #expect(limiter.check(source: "192.0.2.1", user: "alice", now: t0.addingTimeInterval(61)) == .allowed)
    }

    @Test func aSuccessForgetsThatUsersFailures() {
        var limiter = AuthFailureLimiter(limits: limits)
        _ = limiter.recordFailure(source: "192.0.2.1", user: "alice", now: t0)
        limiter.recordSuccess(source: "192.0.2.1", user: "alice", now: t0)
        #expect(limiter.recordFailure(source: "192.0.2.1", user: "alice", now: t0) == .counted)
    }

    @Test func memoryIsBoundedUnderSpoofedSources() {
        var limiter = AuthFailureLimiter(limits: limits, capacity: 100)
        _ = limiter.recordFailure(source: "192.0.2.1", user: "alice", now: t0)
        _ = limiter.recordFailure(source: "192.0.2.1", user: "alice", now: t0)
        for index in 0..<10_000 { _ = limiter.recordFailure(source: "10.0.\(index / 256).\(index % 256)", user: "x", now: t0) }
        #expect(limiter.check(source: "192.0.2.1", user: "alice", now: t0) == .blocked(retryAfter: 300),
                "blocks outlive the entries a flood of spoofed sources pushes out")
        let sizes = limiter.tableSizes
        #expect(sizes.sources <= 100 && sizes.pairs <= 100, "\(sizes)")
    }

    @Test func knownGoodSourcesAreBoundedToo() {
        var limiter = AuthFailureLimiter(limits: limits, capacity: 100)
        for index in 0..<10_000 {
            limiter.recordSuccess(source: "10.0.\(index / 256).\(index % 256)", user: "x", now: t0)
        }
        #expect(limiter.tableSizes.knownGood <= 100)
    }
}
