import Foundation
import Hummingbird
import Logging
import Registrar
import Storage

/// Decides which SIP account a reporter call acts for. The caller proves it
/// owns the account either with the password in the request (checked against
/// the stored MD5 HA1) or with HTTP Digest against the same HA1s as SIP. The
/// answer is always the authenticated account: a request can name another
/// account only to be refused.
///
/// Failed logins (a wrong password, an unknown user, a wrong digest response)
/// are counted per client address; an address over the limit gets 429 before
/// any credential is looked at.
struct ReporterAuthenticator: Sendable {
    let users: UserStore
    let realm: String
    let digest: DigestAuthenticator
    let limiter: FailedLoginLimiter
    let nonceUses: ReporterNonceUses
    let logger: Logger

    /// Nonces for HTTP challenges live as long as the SIP ones by default (300 s).
    init(users: UserStore, settings: APISettings, limiter: FailedLoginLimiter, logger: Logger,
         nonceLifetime: TimeInterval = 300) {
        self.users = users
        self.realm = settings.realm
        self.digest = DigestAuthenticator(
            realm: settings.realm, algorithms: settings.algorithms,
            nonces: NonceIssuer(secret: settings.nonceSecret, lifetime: nonceLifetime))
        self.limiter = limiter
        self.nonceUses = ReporterNonceUses(startedAt: Date())
        self.logger = logger
    }

    /// The stored (lower-cased) username of the authenticated account.
    /// - Parameters:
    ///   - uri: the request target as sent (path and query), which a digest `uri` must equal.
    /// - Throws: `APIError` 429, 401 (with challenges), 403, 400.
    func authenticate(_ request: ReporterRequest, method: String, uri: String, authorization: String?,
                      address: String, now: Date) async throws -> String {
        if let wait = await limiter.retryAfter(address: address, now: now) {
            logger.info("reporter login refused: too many failed logins", metadata: ["address": "\(address)"])
            var headers = HTTPFields()
            headers[.retryAfter] = String(wait)
            throw APIError(.tooManyRequests, "too many failed logins from this address; retry later", headers: headers)
        }
        if let username = request.username, let password = request.password {
            return try await byPassword(username: username, password: password, address: address, now: now)
        }
        guard let authorization, let parameters = try ReporterDigestHeader.parameters(authorization) else {
            throw unauthorized("authentication required: send the account password or answer the Digest challenge",
                               now: now)
        }
        return try await byDigest(parameters, account: request.username, method: method, uri: uri,
                                  address: address, now: now)
    }

    private func byPassword(username: String, password: String, address: String, now: Date) async throws -> String {
        let user = try users.find(username: username)
        // An unknown user is checked against a throw-away HA1, so both
        // failures take the same time and get the same answer.
        let name = user?.username ?? username.lowercased()
        let stored = user?.ha1MD5 ?? DigestHash.hash("\(name):\(realm):", algorithm: .md5)
        let given = DigestHash.ha1(username: name, realm: realm, password: password, algorithm: .md5)
        guard ConstantTimeComparison.equals(given, stored.lowercased()), let user else {
            await limiter.recordFailure(address: address, now: now)
            logger.info("reporter login failed", metadata: ["address": "\(address)", "method": "password"])
            throw unauthorized("wrong username or password", now: now)
        }
        return user.username
    }

    private func byDigest(_ parameters: [String: String], account: String?, method: String, uri: String,
                          address: String, now: Date) async throws -> String {
        guard let credentials = DigestCredentials(parameters: parameters) else {
            throw APIError(.badRequest, "malformed Digest credentials")
        }
        guard credentials.uri == uri else {
            throw APIError(.badRequest, "the Digest uri does not match the request URI")
        }
        let user = try users.find(username: credentials.username)
        let verdict = nonceUses.withTracker { tracker in
            digest.verify(method: method, credentials: credentials, expectedUser: account, now: now,
                          nonceUses: &tracker) { name, algorithm in
                guard let user, user.username == name.lowercased() else { return nil }
                return algorithm == .md5 ? user.ha1MD5 : user.ha1SHA256
            }
        }
        switch verdict {
        case .authenticated:
            guard let user else { throw unauthorized("wrong username or password", now: now) }
            return user.username
        case .challenge(let challenges, let reason):
            if reason.isFailedAttempt {
                await limiter.recordFailure(address: address, now: now)
                logger.info("reporter login failed", metadata: ["address": "\(address)", "method": "digest"])
            }
            let message = reason.isFailedAttempt
                ? "wrong username or password"
                : "the Digest nonce may not be used again (\(reason.rawValue)); answer the new challenge"
            if reason == .replayed {
                logger.warning("reporter digest replay refused", metadata: ["client.address": "\(address)"])
            }
            throw APIError(.unauthorized, message, headers: Self.headers(challenges))
        case .forbidden:
            logger.info("reporter login for another account refused", metadata: ["address": "\(address)"])
            throw APIError(.forbidden, "these credentials belong to another account than the username in the request",
                           field: "username")
        case .badRequest(let reason):
            throw APIError(.badRequest, reason)
        }
    }

    /// 401 with one `WWW-Authenticate: Digest …` per enabled algorithm, SHA-256 first.
    private func unauthorized(_ message: String, now: Date) -> APIError {
        APIError(.unauthorized, message, headers: Self.headers(digest.challenges(stale: false, now: now)))
    }

    private static func headers(_ challenges: [DigestChallenge]) -> HTTPFields {
        var headers = HTTPFields()
        headers[values: .wwwAuthenticate] = challenges.map(\.headerValue)
        return headers
    }
}
