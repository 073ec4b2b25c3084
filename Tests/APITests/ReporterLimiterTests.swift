@testable import API
import Foundation
import XCTest

/// The failed-login window itself, with explicit times.
final class ReporterLimiterTests: XCTestCase {
    func testLimitIsPerAddressAndTheWindowSlides() async {
        let limiter = FailedLoginLimiter(limit: 2, window: 60)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        await limiter.recordFailure(address: "192.0.2.1", now: start)
        let afterOne = await limiter.retryAfter(address: "192.0.2.1", now: start)
        XCTAssertNil(afterOne)
        await limiter.recordFailure(address: "192.0.2.1", now: start.addingTimeInterval(10))
        let blocked = await limiter.retryAfter(address: "192.0.2.1", now: start.addingTimeInterval(15))
        XCTAssertEqual(blocked, 45, "until the first failure is 60 s old")
        let other = await limiter.retryAfter(address: "192.0.2.2", now: start.addingTimeInterval(15))
        XCTAssertNil(other)
        let later = await limiter.retryAfter(address: "192.0.2.1", now: start.addingTimeInterval(60))
        XCTAssertNil(later, "the first failure has left the window")
    }

    func testPruningDropsOnlyStaleAddresses() async {
        let limiter = FailedLoginLimiter(limit: 1, window: 60, pruneThreshold: 2)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        await limiter.recordFailure(address: "a", now: start)
        await limiter.recordFailure(address: "b", now: start)
        await limiter.recordFailure(address: "c", now: start.addingTimeInterval(61))
        let c = await limiter.retryAfter(address: "c", now: start.addingTimeInterval(61))
        XCTAssertEqual(c, 60)
        let a = await limiter.retryAfter(address: "a", now: start.addingTimeInterval(61))
        XCTAssertNil(a)
    }
}
