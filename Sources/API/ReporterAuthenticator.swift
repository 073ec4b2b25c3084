import Foundation
import Hummingbird
import Logging
import Model
import Ports
import Registrar

/// Decides which SIP account a reporter call acts for. The caller proves it
/// owns the account either with the password in the request (checked against
/// the stored MD5 HA1) or with HTTP Digest against the same HA1s as SIP. The
/// answer is always the authenticated account: a request can name another
/// account only to be refused.
///
/// Failed logins (a wrong password, an unknown user, a wrong digest response)
/// are counted per (client address, user), the user being the `username`
/// field or the Digest `username`; a pair over the limit gets 429 before its
/// credentials are looked at, while other users at that address (phones
/// behind one carrier NAT) and that user at other addresses go on. A success
/// forgets the pair's failures.
///
/// Log lines (constant messages; `client.address`, `sip.user`, `http.path`):
/// each failure at warning (`reporter login failed`, the line fail2ban
/// matches), the start of a block at warning, a refusal while blocked at notice.
struct ReporterAuthenticator: Sendable {
    let users: any UserRepository
    let realm: String
    let digest: DigestAuthenticator
    let limiter: FailedLoginLimiter
    let nonceUses: ReporterNonceUses
    let logger: Logger
    let metrics: APIMetrics

    /// Nonces for HTTP challenges live as long as the SIP ones by default (300 s).
    /// - Parameter startedAt: now, on the routes' clock: nonces issued before
    ///   it are refused as `forgotten` (`NonceTracker`).
    init(users: any UserRepository, settings: APISettings, limiter: FailedLoginLimiter, logger: Logger,
         metrics: APIMetrics, startedAt: Date) {
        self.users = users
        self.realm = settings.realm
        self.digest = DigestAuthenticator(
            realm: settings.realm, algorithms: settings.algorithms,
            nonces: NonceIssuer(secret: settings.nonceSecret, lifetime: TimeInterval(settings.nonceLifetime)))
        self.limiter = limiter
        self.nonceUses = ReporterNonceUses(startedAt: startedAt, maxUses: settings.nonceMaxUses)
        self.logger = logger
        self.metrics = metrics
    }

    /// Who tries which account, from where, on which route: the limiter's key
    /// and the metadata of every log line about it.
    private struct Attempt {
        let address: String
        /// Lower-cased, as the limiter and the user table compare names.
        let user: String
        /// The path only: the query string may hold the password and tokens.
        let path: String
        let now: Date

        /// Names are checked before an attempt exists (`refuseUnlessUsername`);
        /// "-" stays as a second guard, so a name that could forge a second
        /// `client.address` in a text log line never reaches one.
        var metadata: Logger.Metadata {
            ["client.address": "\(address)", "sip.user": "\(SIPUsername.isValid(user) ? user : "-")",
             "http.path": "\(path)"]
        }
    }

    /// The stored (lower-cased) username of the authenticated account.
    /// - Parameters:
    ///   - uri: the request target as sent (path and query), which a digest `uri` must equal.
    ///   - path: the request path, for the log.
    /// - Throws: `APIError` 429, 401 (with challenges), 403, 400.
    func authenticate(_ request: ReporterRequest, method: String, uri: String, path: String, authorization: String?,
                      address: String, now: Date) throws -> String {
        if let username = request.username, let password = request.password {
            try refuseUnlessUsername(username, address: address, path: path)
            let attempt = Attempt(address: address, user: username.lowercased(), path: path, now: now)
            try refuseIfBlocked(attempt)
            return try byPassword(password: password, attempt)
        }
        guard let authorization, let parameters = try ReporterDigestHeader.parameters(authorization) else {
            throw unauthorized("authentication required: send the account password or answer the Digest challenge",
                               now: now)
        }
        guard let credentials = DigestCredentials(parameters: parameters) else {
            throw APIError(.badRequest, "malformed Digest credentials")
        }
        try refuseUnlessUsername(credentials.username, address: address, path: path)
        let attempt = Attempt(address: address, user: credentials.username.lowercased(), path: path, now: now)
        try refuseIfBlocked(attempt)
        return try byDigest(credentials, account: request.username, method: method, uri: uri, attempt)
    }

    /// 400 for a name no account can have (too long, spaces, `@`…), before
    /// anything is looked up or counted: the failed-login table is keyed by
    /// the name, so only names of at most 64 characters ever enter it.
    private func refuseUnlessUsername(_ username: String, address: String, path: String) throws {
        guard !SIPUsername.isValid(username) else { return }
        metrics.badUsernames.increment()
        logger.warning("reporter username refused", metadata: ["client.address": "\(address)", "http.path": "\(path)"])
        throw APIError(.badRequest, "invalid username: 1 to 64 letters, digits or - _ . ! ~ * ' ( ) & = + $ , ; ?",
                       field: "username")
    }

    /// 429 with Retry-After while the pair is blocked; its credentials are not checked.
    private func refuseIfBlocked(_ attempt: Attempt) throws {
        guard let wait = limiter.retryAfter(address: attempt.address, user: attempt.user, now: attempt.now) else { return }
        metrics.reporterBlocked.increment()
        logger.notice("reporter login refused while blocked", metadata: attempt.metadata)
        var headers = HTTPFields()
        headers[.retryAfter] = String(wait)
        throw APIError(.tooManyRequests, "too many failed logins for this user from this address; retry later",
                       headers: headers)
    }

    private func byPassword(password: String, _ attempt: Attempt) throws -> String {
        let user = try users.find(username: attempt.user)
        // An unknown user is checked against a throw-away HA1, so both
        // failures take the same time and get the same answer.
        let name = user?.username ?? attempt.user
        let stored = user?.ha1MD5 ?? DigestHash.hash("\(name):\(realm):", algorithm: .md5)
        let given = DigestHash.ha1(username: name, realm: realm, password: password, algorithm: .md5)
        guard ConstantTimeComparison.equals(given, stored.lowercased()), let user else {
            recordFailure(attempt, method: "password")
            throw unauthorized("wrong username or password", now: attempt.now)
        }
        limiter.recordSuccess(address: attempt.address, user: attempt.user, now: attempt.now)
        return user.username
    }

    private func byDigest(_ credentials: DigestCredentials, account: String?, method: String, uri: String,
                          _ attempt: Attempt) throws -> String {
        guard credentials.uri == uri else {
            metrics.uriMismatches.increment()
            logger.warning("reporter digest uri mismatch", metadata: attempt.metadata)
            throw APIError(.badRequest, "the Digest uri does not match the request URI")
        }
        let user = try users.find(username: credentials.username)
        let verdict = nonceUses.withTracker { tracker in
            digest.verify(method: method, credentials: credentials, expectedUser: account, now: attempt.now,
                          nonceUses: &tracker) { name, algorithm in
                guard let user, user.username == name.lowercased() else { return nil }
                return algorithm == .md5 ? user.ha1MD5 : user.ha1SHA256
            }
        }
        switch verdict {
        case .authenticated:
            guard let user else { throw unauthorized("wrong username or password", now: attempt.now) }
            limiter.recordSuccess(address: attempt.address, user: attempt.user, now: attempt.now)
            return user.username
        case .challenge(let challenges, let reason):
            if reason.isFailedAttempt {
                recordFailure(attempt, method: "digest")
            }
            let message = reason.isFailedAttempt
                ? "wrong username or password"
                : "the Digest nonce may not be used again (\(reason.rawValue)); answer the new challenge"
            if reason == .replayed {
                metrics.replays.increment()
                logger.warning("reporter digest replay refused", metadata: attempt.metadata)
            }
            throw APIError(.unauthorized, message, headers: Self.headers(challenges))
        case .forbidden:
            logger.notice("reporter login for another account refused",
                          metadata: attempt.metadata.merging(["reporter.account": "\(account ?? "")"]) { $1 })
            throw APIError(.forbidden, "these credentials belong to another account than the username in the request",
                           field: "username")
        case .badRequest(let reason):
            throw APIError(.badRequest, reason)
        }
    }

    /// Counts a failed login and logs it: the line fail2ban matches, then the
    /// start of a block when this failure reached the limit.
    private func recordFailure(_ attempt: Attempt, method: String) {
        let blocked = limiter.recordFailure(address: attempt.address, user: attempt.user, now: attempt.now)
        metrics.reporterLoginFailures.increment()
        logger.warning("reporter login failed",
                       metadata: attempt.metadata.merging(["auth.method": "\(method)"]) { $1 })
        if blocked {
            logger.warning("reporter user blocked at address", metadata: attempt.metadata)
        }
    }

    /// 401 with one `WWW-Authenticate: Digest …` per enabled algorithm, in the configured order.
    private func unauthorized(_ message: String, now: Date) -> APIError {
        APIError(.unauthorized, message, headers: Self.headers(digest.challenges(stale: false, now: now)))
    }

    private static func headers(_ challenges: [DigestChallenge]) -> HTTPFields {
        var headers = HTTPFields()
        headers[values: .wwwAuthenticate] = challenges.map(\.headerValue)
        return headers
    }
}
