import Foundation
import Ports
import Push
import Testing

@Suite struct PushRetryAfterTests {
    let now = Date(timeIntervalSince1970: 1_700_000_000)  // Tue, 14 Nov 2023 22:13:20 GMT

    @Test func secondsOrAnHTTPDate() {
        #expect(PushRetryAfter.seconds("120", now: now) == 120)
        #expect(PushRetryAfter.seconds(" 0 ", now: now) == 0)
        #expect(PushRetryAfter.seconds("Tue, 14 Nov 2023 22:14:20 GMT", now: now) == 60)
        #expect(PushRetryAfter.seconds("Tue, 14 Nov 2023 22:00:00 GMT", now: now) == 0)
        #expect(PushRetryAfter.seconds("-5", now: now) == nil)
        #expect(PushRetryAfter.seconds("soon", now: now) == nil)
    }

    @Test func theHeaderIsFoundWhateverItsCase() {
        #expect(PushRetryAfter.seconds(in: [PushHTTPHeader("RETRY-AFTER", "7")], now: now) == 7)
        #expect(PushRetryAfter.seconds(in: [PushHTTPHeader("apns-id", "7")], now: now) == nil)
    }
}
