@testable import API
import Foundation
import Testing

/// The HTTP side's lock around `AuthFailureLimiter`, in its (address, user) mode.
@Suite struct FailedLoginLimiterTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func aPairIsBlockedAtItsLimitAndNothingElseIs() {
        let limiter = FailedLoginLimiter(limit: 2)
        #expect(limiter.recordFailure(address: "192.0.2.1", user: "alice", now: start) == false)
        #expect(limiter.retryAfter(address: "192.0.2.1", user: "alice", now: start) == nil)
        #expect(limiter.recordFailure(address: "192.0.2.1", user: "Alice", now: start.addingTimeInterval(10)),
                "the second failure starts the block; names compare case-insensitively")
        #expect(limiter.retryAfter(address: "192.0.2.1", user: "alice", now: start.addingTimeInterval(15)) == 55)
        #expect(limiter.retryAfter(address: "192.0.2.1", user: "bob", now: start.addingTimeInterval(15)) == nil,
                "another user at the address")
        #expect(limiter.retryAfter(address: "192.0.2.2", user: "alice", now: start.addingTimeInterval(15)) == nil,
                "the user at another address")
        #expect(limiter.retryAfter(address: "192.0.2.1", user: "alice", now: start.addingTimeInterval(70)) == nil,
                "the block lasts `blockTime` from the failure that started it")
    }

    @Test func failuresOutsideTheWindowDoNotAddUp() {
        let limiter = FailedLoginLimiter(limit: 2)
        #expect(limiter.recordFailure(address: "192.0.2.1", user: "alice", now: start) == false)
        #expect(limiter.recordFailure(address: "192.0.2.1", user: "alice", now: start.addingTimeInterval(60)) == false)
        #expect(limiter.retryAfter(address: "192.0.2.1", user: "alice", now: start.addingTimeInterval(60)) == nil)
    }

    @Test func aSuccessForgetsThePairsFailures() {
        let limiter = FailedLoginLimiter(limit: 2)
        _ = limiter.recordFailure(address: "192.0.2.1", user: "alice", now: start)
        limiter.recordSuccess(address: "192.0.2.1", user: "alice", now: start.addingTimeInterval(1))
        #expect(limiter.recordFailure(address: "192.0.2.1", user: "alice", now: start.addingTimeInterval(2)) == false)
        #expect(limiter.retryAfter(address: "192.0.2.1", user: "alice", now: start.addingTimeInterval(2)) == nil)
    }
}
