import Foundation
import Push
import Testing

/// When credentials are made, as pure rules.
@Suite struct PushCredentialTimingTests {
    let now = Date(timeIntervalSince1970: 1_700_000_000)
    let timing = PushCredentialTiming()

    @Test func failuresAreRetriedAfterADoublingDelayUpToAMinute() {
        #expect((1...9).map { timing.retryDelay(afterFailures: $0) } == [1, 2, 4, 8, 16, 32, 60, 60, 60])
        #expect(timing.retryDelay(afterFailures: 1000) == 60)
    }

    @Test func aRefusalRenewsAtOnceButNotTwiceAMinute() {
        let scheduled = now.addingTimeInterval(2400)
        // Last made 10 minutes ago: now.
        #expect(timing.nextAttempt(afterInvalidationAt: now, lastAttempt: now.addingTimeInterval(-600), scheduled: scheduled) == now)
        // Last made 20 s ago: 40 s from now.
        #expect(timing.nextAttempt(afterInvalidationAt: now, lastAttempt: now.addingTimeInterval(-20), scheduled: scheduled)
            == now.addingTimeInterval(40))
        // A retry already due sooner stays.
        #expect(timing.nextAttempt(afterInvalidationAt: now, lastAttempt: now.addingTimeInterval(-20),
                                   scheduled: now.addingTimeInterval(5)) == now.addingTimeInterval(5))
    }

    @Test func apnsTokensLiveFortyMinutes() {
        #expect(PushCredentialTiming.apnsRenewal(issuedAt: now) == now.addingTimeInterval(2400))
    }

    @Test func accessTokensAreRenewedFiveMinutesEarlyOrHalfwayWhenShortLived() {
        #expect(PushCredentialTiming.oauthRenewal(issuedAt: now, expiresAt: now.addingTimeInterval(3600))
            == now.addingTimeInterval(3300))
        #expect(PushCredentialTiming.oauthRenewal(issuedAt: now, expiresAt: now.addingTimeInterval(240))
            == now.addingTimeInterval(120))
    }
}
