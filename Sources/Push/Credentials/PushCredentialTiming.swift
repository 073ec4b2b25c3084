import Foundation

/// When the ``PushCredentialService`` makes credentials, as pure rules:
/// renewals after a refusal are spaced out (a provider refusing every
/// credential must not be hammered), failures are retried with a doubling
/// delay, and each kind of credential has its renewal time.
public struct PushCredentialTiming: Sendable, Equatable {
    /// Least time between two credentials made for the same app because
    /// pushes were refused: 60 s.
    public var minimumRenewalGap: TimeInterval
    /// Delay before the first retry after a failure: 1 s, doubling each time…
    public var firstRetryDelay: TimeInterval
    /// …up to this: 60 s.
    public var maximumRetryDelay: TimeInterval

    public init(minimumRenewalGap: TimeInterval = 60, firstRetryDelay: TimeInterval = 1, maximumRetryDelay: TimeInterval = 60) {
        self.minimumRenewalGap = minimumRenewalGap
        self.firstRetryDelay = firstRetryDelay
        self.maximumRetryDelay = maximumRetryDelay
    }

    /// How long to wait after `failures` failures in a row (1 or more).
    public func retryDelay(afterFailures failures: Int) -> TimeInterval {
        let doublings = max(0, min(failures - 1, 30))
        return min(maximumRetryDelay, firstRetryDelay * Double(1 << doublings))
    }

    /// When to make the next credential once pushes were refused at `now`:
    /// at once, unless the last renewal a refusal caused (`lastAttempt`) was
    /// less than ``minimumRenewalGap`` ago; never later than the attempt
    /// already `scheduled`.
    public func nextAttempt(afterInvalidationAt now: Date, lastAttempt: Date?, scheduled: Date) -> Date {
        guard let lastAttempt else { return min(now, scheduled) }
        return min(scheduled, max(now, lastAttempt.addingTimeInterval(minimumRenewalGap)))
    }

    /// APNs provider tokens: Apple refuses a token older than an hour and
    /// one renewed more often than every 20 minutes, so a token is used for
    /// 40 minutes.
    public static let apnsTokenLifetime: TimeInterval = 40 * 60
    /// Apple's limit on a provider token's age.
    public static let apnsTokenMaximumAge: TimeInterval = 60 * 60

    /// When to renew an APNs provider token issued at `issuedAt`.
    public static func apnsRenewal(issuedAt: Date) -> Date {
        issuedAt.addingTimeInterval(apnsTokenLifetime)
    }

    /// When to renew an OAuth access token: 5 minutes before it expires, or
    /// halfway through its life when that is shorter than 10 minutes.
    public static func oauthRenewal(issuedAt: Date, expiresAt: Date) -> Date {
        let life = max(0, expiresAt.timeIntervalSince(issuedAt))
        return expiresAt.addingTimeInterval(-min(5 * 60, life / 2))
    }
}
