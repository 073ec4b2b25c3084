import Foundation
import Registrar
import Synchronization

/// `Registrar.AuthFailureLimiter` behind a lock, shared by the HTTP event
/// loops of one router (a call holds the lock for one dictionary update,
/// never across I/O). Each set of routes owns its own: no global state.
///
/// The HTTP side uses it in (address, user) mode only (`perSource` 0), so a
/// block never reaches past the pair it was earned by:
/// - the reporters key it by (client address, account), so phones behind one
///   carrier NAT do not lock each other out;
/// - the admin API keys it by client address alone, with one fixed user
///   (`AdminAuthenticator.bearerUser`): a bearer token names nobody.
final class FailedLoginLimiter: Sendable {
    /// Failures are counted over this window; the limit settings are "per minute".
    static let window: TimeInterval = 60
    /// How long a pair that reached its limit is refused.
    static let blockTime: TimeInterval = 60

    private let limiter: Mutex<AuthFailureLimiter>

    /// - Parameter limit: failures of one pair within `window` that start a block (at least 1).
    init(limit: Int, window: TimeInterval = FailedLoginLimiter.window,
         blockTime: TimeInterval = FailedLoginLimiter.blockTime, capacity: Int = 100_000) {
        let limits = AuthFailureLimiter.Limits(perSource: 0, perUser: limit, window: window, blockTime: blockTime)
        limiter = Mutex(AuthFailureLimiter(limits: limits, capacity: capacity))
    }

    /// Seconds to wait (at least 1) while `user` is blocked at `address`; nil when it may try.
    func retryAfter(address: String, user: String, now: Date) -> Int? {
        switch limiter.withLock({ $0.check(source: address, user: user, now: now) }) {
        case .allowed: nil
        case .blocked(let seconds): seconds
        }
    }

    /// Counts one failed attempt; true when it started a block of that pair.
    func recordFailure(address: String, user: String, now: Date) -> Bool {
        limiter.withLock { $0.recordFailure(source: address, user: user, now: now) } != .counted
    }

    /// A right password, token or digest response: that pair's failures are forgotten.
    func recordSuccess(address: String, user: String, now: Date) {
        limiter.withLock { $0.recordSuccess(source: address, user: user, now: now) }
    }
}
