import Foundation
import Hummingbird
import Logging
import Registrar

/// Guards every admin route: 404 when no admin token is configured (the admin
/// API is off by default), 401 with a Bearer challenge unless the request
/// carries `Authorization: Bearer <token>`, compared in constant time.
///
/// Wrong tokens are counted per client address (`FailedLoginLimiter`, one per
/// router): the admin API is for operators, not for phones behind a shared
/// NAT, so the address alone is the key. An address that reached the limit
/// gets 429 with Retry-After, its token not compared, until the block ends;
/// other addresses are not affected. A request without a bearer token is not
/// a guess and is not counted; a right token forgets the address's failures.
///
/// Log lines (constant messages; `client.address`, `http.path`): each wrong
/// token at warning (`admin request with wrong bearer token`, the line
/// fail2ban matches), the start of a block at warning, a refusal while
/// blocked and a missing token at notice.
struct AdminAuthenticator<Context: RequestContext>: RouterMiddleware {
    /// nil (or empty) switches the admin API off.
    let token: String?
    let limiter: FailedLoginLimiter
    let clock: @Sendable () -> Date
    let logger: Logger
    let metrics: APIMetrics

    /// The limiter counts (address, user) pairs; a bearer token names nobody,
    /// so every admin request is this one user and the pair is the address.
    static var bearerUser: String { "admin" }

    static var challenge: HTTPFields {
        [.wwwAuthenticate: "Bearer realm=\"sipwake-admin\""]
    }

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let token, !token.isEmpty else {
            throw AdminError.notFound("admin API disabled")
        }
        let address = ClientAddress.of(context)
        let metadata: Logger.Metadata = ["client.address": "\(address)", "http.path": "\(request.uri.path)"]
        let now = clock()
        if let wait = limiter.retryAfter(address: address, user: Self.bearerUser, now: now) {
            metrics.adminBlocked.increment()
            logger.notice("admin request refused while blocked", metadata: metadata)
            throw AdminError(.tooManyRequests, "too many wrong bearer tokens from this address; retry later",
                             headers: [.retryAfter: String(wait)])
        }
        guard let presented = Self.bearer(request.headers[.authorization]) else {
            logger.notice("admin request without bearer token", metadata: metadata)
            throw AdminError(.unauthorized, "missing bearer token", headers: Self.challenge)
        }
        guard ConstantTimeComparison.equals(presented, token) else {
            let blocked = limiter.recordFailure(address: address, user: Self.bearerUser, now: now)
            metrics.adminLoginFailures.increment()
            logger.warning("admin request with wrong bearer token", metadata: metadata)
            if blocked {
                logger.warning("admin client address blocked", metadata: metadata)
            }
            throw AdminError(.unauthorized, "wrong bearer token", headers: Self.challenge)
        }
        limiter.recordSuccess(address: address, user: Self.bearerUser, now: now)
        return try await next(request, context)
    }

    /// The credentials of `Bearer <token>` (scheme case-insensitive), or nil.
    static func bearer(_ header: String?) -> String? {
        guard let header else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let credentials = parts[1].trimmingCharacters(in: .whitespaces)
        return credentials.isEmpty ? nil : credentials
    }
}
