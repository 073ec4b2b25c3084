import Foundation
@testable import Registrar
import Testing

/// `NonceTracker`'s table, row by row, and the replay as `DigestAuthenticator` sees it.
@Suite struct NonceTrackerTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func increasingCountsAreFreshAndARepeatIsAReplay() {
        var tracker = NonceTracker(startedAt: t0.addingTimeInterval(-1))
        #expect(tracker.use(nonce: "n", issued: t0, count: 1, now: t0, lifetime: 300) == .fresh)
        #expect(tracker.use(nonce: "n", issued: t0, count: 2, now: t0, lifetime: 300) == .fresh)
        #expect(tracker.use(nonce: "n", issued: t0, count: 2, now: t0, lifetime: 300) == .replayed)
        #expect(tracker.use(nonce: "n", issued: t0, count: 1, now: t0, lifetime: 300) == .replayed)
        #expect(tracker.use(nonce: "n", issued: t0, count: 7, now: t0, lifetime: 300) == .fresh, "counts may skip")
    }

    @Test func withoutQopANonceServesOneRequest() {
        var tracker = NonceTracker(startedAt: t0.addingTimeInterval(-1))
        #expect(tracker.use(nonce: "n", issued: t0, count: nil, now: t0, lifetime: 300) == .fresh)
        #expect(tracker.use(nonce: "n", issued: t0, count: nil, now: t0, lifetime: 300) == .replayed)
        #expect(tracker.use(nonce: "n", issued: t0, count: 5, now: t0, lifetime: 300) == .replayed)
    }

    @Test func aNonceIsUsedUpAfterMaxUses() {
        var tracker = NonceTracker(maxUses: 3, startedAt: t0.addingTimeInterval(-1))
        for count in 1...3 {
            #expect(tracker.use(nonce: "n", issued: t0, count: UInt32(count), now: t0, lifetime: 300) == .fresh)
        }
        #expect(tracker.use(nonce: "n", issued: t0, count: 4, now: t0, lifetime: 300) == .exhausted)
    }

    @Test func noncesIssuedBeforeTheTrackerStartedAreForgotten() {
        // A restart: whatever the nonce's age, the window does not reopen.
        var tracker = NonceTracker(startedAt: t0)
        #expect(tracker.use(nonce: "old", issued: t0.addingTimeInterval(-10), count: 1, now: t0, lifetime: 300) == .forgotten)
        #expect(tracker.use(nonce: "same-ms", issued: t0, count: 1, now: t0, lifetime: 300) == .forgotten)
        #expect(tracker.use(nonce: "new", issued: t0.addingTimeInterval(0.001), count: 1, now: t0, lifetime: 300) == .fresh)
    }

    @Test func aFullTableForgetsItsOldestAndNeverAcceptsThemAgain() {
        var tracker = NonceTracker(capacity: 2, startedAt: t0.addingTimeInterval(-1))
        #expect(tracker.use(nonce: "a", issued: t0, count: 1, now: t0, lifetime: 300) == .fresh)
        #expect(tracker.use(nonce: "b", issued: t0.addingTimeInterval(1), count: 1, now: t0, lifetime: 300) == .fresh)
        #expect(tracker.use(nonce: "c", issued: t0.addingTimeInterval(2), count: 1, now: t0, lifetime: 300) == .fresh)
        #expect(tracker.count == 2)
        #expect(tracker.use(nonce: "a", issued: t0, count: 2, now: t0, lifetime: 300) == .forgotten,
                "evicted: refused, not fresh again")
        #expect(tracker.use(nonce: "b", issued: t0.addingTimeInterval(1), count: 1, now: t0, lifetime: 300) == .replayed)
    }

    @Test func staleEntriesLeaveTheTable() {
        var tracker = NonceTracker(startedAt: t0.addingTimeInterval(-1))
        _ = tracker.use(nonce: "a", issued: t0, count: 1, now: t0, lifetime: 300)
        _ = tracker.use(nonce: "b", issued: t0.addingTimeInterval(400), count: 1, now: t0.addingTimeInterval(400), lifetime: 300)
        #expect(tracker.count == 1)
    }

    @Test func countsAreEightHexDigits() {
        #expect(NonceTracker.parseCount("00000001") == 1)
        #expect(NonceTracker.parseCount("0000000a") == 10)
        #expect(NonceTracker.parseCount("ffffffff") == UInt32.max)
        #expect(NonceTracker.parseCount("100000000") == nil)
        #expect(NonceTracker.parseCount("zz") == nil)
        #expect(NonceTracker.parseCount("") == nil)
        #expect(NonceTracker.parseCount(nil) == nil)
    }

    /// The attack from the hardening issue, on the pure layer: the same
    /// Authorization sent twice authenticates once.
    @Test func theAuthenticatorRefusesAReplayedResponseWithStale() {
        let realm = "example.com"
        let issuer = NonceIssuer(secret: Array("secret".utf8), lifetime: 300)
        let authenticator = DigestAuthenticator(realm: realm, algorithms: [.md5], nonces: issuer)
        let nonce = authenticator.nonces.make(now: t0)
        let ha1 = DigestHash.ha1(username: "alice", realm: realm, password: "pw", algorithm: .md5)
        func credentials(nc: String) -> DigestCredentials {
            let response = DigestHash.response(ha1: ha1, nonce: nonce, method: "REGISTER", uri: "sip:example.com",
                                               qop: "auth", nc: nc, cnonce: "c", algorithm: .md5)
            return DigestCredentials(username: "alice", realm: realm, nonce: nonce, uri: "sip:example.com",
                                     response: response, algorithm: .md5, qop: "auth", nc: nc, cnonce: "c")
        }
        var uses = NonceTracker(startedAt: t0.addingTimeInterval(-1))
        func verify(_ c: DigestCredentials) -> DigestVerdict {
            authenticator.verify(method: "REGISTER", credentials: c, expectedUser: "alice", now: t0,
                                 nonceUses: &uses) { _, _ in ha1 }
        }
        #expect(verify(credentials(nc: "00000001")) == .authenticated(username: "alice"))
        guard case .challenge(let challenges, let reason) = verify(credentials(nc: "00000001")) else {
            Issue.record("a replay must be challenged")
            return
        }
        #expect(reason == .replayed)
        #expect(challenges.allSatisfy { $0.stale })
        #expect(verify(credentials(nc: "00000002")) == .authenticated(username: "alice"))
    }
}

/// The comparison every secret goes through.
@Suite struct ConstantTimeComparisonTests {
    @Test func equalOnlyWhenEveryByteAndTheLengthMatch() {
        #expect(ConstantTimeComparison.equals("a1b2c3", "a1b2c3"))
        #expect(!ConstantTimeComparison.equals("a1b2c4", "a1b2c3"))
        #expect(!ConstantTimeComparison.equals("a1b2c", "a1b2c3"))
        #expect(!ConstantTimeComparison.equals("a1b2c3d", "a1b2c3"))
        #expect(!ConstantTimeComparison.equals("", "x"))
        #expect(ConstantTimeComparison.equals("", ""))
    }
}
