import Foundation
import Logging
import Metrics
import Model
import Ports
import Registrar
import SIPCore

/// Digest authentication (RFC 3261 §22, RFC 8760) of everything a phone
/// sends: REGISTER is challenged with 401 and WWW-Authenticate, requests
/// through the proxy (INVITE, MESSAGE) with 407 and Proxy-Authenticate.
///
/// It owns what authentication needs on the SIP loop, so nothing waits on
/// disk: every user's HA1s (`CredentialCache`, refreshed when the users
/// table changes; an unknown name is looked up off the loop once), the
/// nonce uses (`NonceTracker`: a replayed request is refused), and the
/// guessing limits (`AuthFailureLimiter`). Challenges and refusals are sent
/// statelessly, so a stranger's request leaves nothing behind.
///
/// Requests from a trusted peer, and every request when authentication is
/// off, go on unchallenged (`check`).
///
/// | # | request | answer |
/// |---|---|---|
/// | 1 | Authorization for our realm malformed | 400 |
/// | 2 | username not in memory, not known to be unknown, room to park (`ParkedRequests`) | parked; looked up off the loop; handled again |
/// | 3 | that user is blocked from that address (`AuthFailureLimiter`) | 403, credentials not checked |
/// | 4 | digest `uri` is not the Request-URI (RFC 2617 §3.2.2.5) | 400 |
/// | 5 | `DigestAuthenticator` says challenge | 401/407 with fresh nonces, one challenge per algorithm less those the phone is known to refuse (`DigestClientQuirks`); a wrong response is counted, logged at warning |
/// | 6 | `DigestAuthenticator` says forbidden | 403 |
/// | 7 | authenticated | the request goes on; that user's failures from that address are forgotten |
///
/// Used on the SIP loop only.
final class SIPAuthenticator {
    enum Kind {
        /// REGISTER: 401, WWW-Authenticate, Authorization.
        case registrar
        /// A request through the proxy: 407, Proxy-Authenticate, Proxy-Authorization.
        case proxy
    }

    private(set) var credentials = CredentialCache()
    private let digest: DigestAuthenticator
    private var nonceUses: NonceTracker
    private var limiter: AuthFailureLimiter
    private let realm: String
    private let settings: RegistrarSettings
    /// Asks for a user to be looked up off the loop; the answer comes back
    /// through `userLoaded`.
    private let lookUp: (String) -> Void
    private let logger: Logger
    private let metrics: AuthMetrics
    private let clock: @Sendable () -> Date
    /// Names looked up and not found since the users table last changed: a
    /// flood of requests with made-up names costs one lookup per name.
    private var unknownUsers: Set<String> = []
    /// Requests waiting for a user lookup, by username.
    private var awaitingUser: [String: [() -> Void]] = [:]
    /// The requests waiting for a lookup (Call-ID, CSeq, method, source), so
    /// that their retransmissions are dropped rather than queued again;
    /// bounded in all and per source.
    private var parked = ParkedRequests()
    /// Told the source address of every request that authenticated.
    var onAuthenticated: ((String) -> Void)?

    init(settings: RegistrarSettings, lookUp: @escaping (String) -> Void, logger: Logger,
         metrics: any MetricsFactory, clock: @escaping @Sendable () -> Date) {
        self.settings = settings
        realm = settings.realm
        digest = DigestAuthenticator(
            realm: settings.realm, algorithms: settings.algorithms,
            nonces: NonceIssuer(secret: settings.nonceSecret, lifetime: TimeInterval(settings.nonceLifetime),
                                realm: settings.realm))
        nonceUses = NonceTracker(maxUses: settings.nonceMaxUses, startedAt: clock())
        limiter = AuthFailureLimiter(limits: settings.failureLimits)
        self.lookUp = lookUp
        self.logger = logger
        self.metrics = AuthMetrics(factory: metrics)
        self.clock = clock
    }

    // MARK: Users

    var usersVersion: Int64 { credentials.version }

    func replaceUsers(_ users: [UserRecord], version: Int64) {
        credentials.replace(with: users, version: version)
        unknownUsers.removeAll()
    }

    /// The user record of a local user, when it exists.
    func user(_ name: String) -> UserRecord? { credentials.users[name.lowercased()] }

    // MARK: Authentication

    /// What became of a request `check` was given.
    enum Outcome: Equatable {
        /// Authentication is off, or the request comes from a trusted peer.
        case trusted
        /// The credentials are good: the (lower-cased) username.
        case authenticated(String)
        /// Answered (challenge, refusal), or parked while its user is looked up.
        case handled
    }

    /// True when requests from this source go on without credentials:
    /// authentication is off, or the source is a trusted peer.
    func isTrusted(_ source: BindingSource) -> Bool {
        !settings.authEnabled || settings.isTrusted(source.host)
    }

    /// Authenticates a request unless its source is trusted (`isTrusted`);
    /// see `authenticate` for the rest. `refused` is told when the
    /// credentials themselves failed (rows 1, 3, 4, 6, a wrong response or a
    /// replay in row 5), before the answer goes out; not for a challenge a
    /// phone answers by itself (no credentials yet, a stale or used-up nonce).
    func check(_ request: IncomingRequest, kind: Kind, expectedUser: String?,
               refused: ((AuthRefusal) -> Void)? = nil, retry: @escaping () -> Void) -> Outcome {
        if isTrusted(request.source) { return .trusted }
        guard let user = authenticate(request, kind: kind, expectedUser: expectedUser,
                                      refused: refused ?? { _ in }, retry: retry) else {
            return .handled
        }
        return .authenticated(user)
    }

    /// The authenticated (lower-cased) username, or nil once the request has
    /// been answered, or parked while its user is looked up: `retry` then
    /// runs on the loop when the lookup is done, to handle it from the top.
    /// `expectedUser` is the user the request must act for (REGISTER: the To
    /// user; a call: the From user).
    private func authenticate(_ request: IncomingRequest, kind: Kind, expectedUser: String?,
                              refused: (AuthRefusal) -> Void, retry: @escaping () -> Void) -> String? {
        let message = request.message
        let all = kind == .registrar ? message.digestAuthorizations : message.digestProxyAuthorizations
        let parameters = all.first { ($0["realm"] ?? "") == realm } ?? all.first
        let method = message.method ?? "INVITE"
        let source = request.source.host
        var credentials: DigestCredentials?
        if let parameters {
            guard let parsed = DigestCredentials(parameters: parameters) else {
                refused(AuthRefusal(400, "malformed credentials"))
                request.replyStateless(400, kind == .registrar ? "Bad Authorization" : "Bad Proxy-Authorization")
                return nil
            }
            let name = parsed.username.lowercased()
            if !self.credentials.contains(name) && !unknownUsers.contains(name),
               awaitUser(name, request: request, retry: retry) {
                return nil
            }
            if case .blocked(let seconds) = limiter.check(source: source, user: name, now: clock()) {
                metrics.blocked.increment()
                refused(AuthRefusal(403, "too many failed attempts, blocked from this address"))
                request.replyStateless(403, "Too Many Failed Attempts",
                                       tags: SofiaTagList().header("Retry-After", String(seconds)))
                return nil
            }
            if !message.requestURIEquals(parsed.uri) {
                metrics.uriMismatches.increment()
                // Counted like a wrong response, so a source cannot draw a
                // warning line per request for ever.
                _ = limiter.recordFailure(source: source, user: name, now: clock())
                logger.warning("digest uri mismatch", metadata: [
                    "client.address": "\(source)", "sip.user": "\(Self.loggable(name))", "sip.method": "\(method)"])
                refused(AuthRefusal(400, "digest uri is not the Request-URI"))
                request.replyStateless(400, "Authorization URI Mismatch")
                return nil
            }
            credentials = parsed
        }
        let now = clock()
        let cache = self.credentials
        let verdict = digest.verify(method: method, credentials: credentials, expectedUser: expectedUser,
                                    now: now, nonceUses: &nonceUses) { username, algorithm in
            cache.ha1(username: username, algorithm: algorithm)
        }
        switch verdict {
        case .authenticated(let username):
            let name = username.lowercased()
            limiter.recordSuccess(source: source, user: name, now: now)
            onAuthenticated?(source)
            return name
        case .challenge(let challenges, let reason):
            metrics.challenged.increment()
            noteChallenge(reason, credentials: credentials, method: method, source: source, now: now)
            let known = credentials.map { self.credentials.contains($0.username.lowercased()) } ?? false
            if let refusal = Self.refusal(reason, knownUser: known, status: kind == .registrar ? 401 : 407) {
                refused(refusal)
            }
            let tags = SofiaTagList()
            let header = kind == .registrar ? "WWW-Authenticate" : "Proxy-Authenticate"
            for challenge in DigestClientQuirks.challenges(challenges, userAgent: message.userAgent) {
                tags.header(header, challenge.headerValue)
            }
            if kind == .registrar {
                request.replyStateless(401, "Unauthorized", tags: tags)
            } else {
                request.replyStateless(407, "Proxy Authentication Required", tags: tags)
            }
        case .forbidden(let reason):
            metrics.forbidden.increment()
            logger.warning("digest credentials of another user", metadata: [
                "client.address": "\(source)", "sip.user": "\(Self.loggable(credentials?.username.lowercased() ?? ""))",
                "sip.method": "\(method)", "digest.reason": "\(reason)"])
            refused(AuthRefusal(403, "another user's credentials"))
            request.replyStateless(403, "Forbidden")
        case .badRequest(let reason):
            metrics.malformed.increment()
            logger.debug("digest credentials malformed", metadata: [
                "client.address": "\(source)", "sip.method": "\(method)", "digest.reason": "\(reason)"])
            refused(AuthRefusal(400, reason.lowercased()))
            request.replyStateless(400, reason)
        }
        return nil
    }

    /// The refusal a challenge for `reason` is: a wrong response (a wrong
    /// password for `knownUser`, or a user nobody knows) or a replay; nil
    /// for a challenge a phone answers by itself.
    static func refusal(_ reason: DigestChallengeReason, knownUser: Bool, status: Int) -> AuthRefusal? {
        switch reason {
        case .wrongResponse:
            return AuthRefusal(status, knownUser ? "wrong password" : "no such user")
        case .replayed:
            return AuthRefusal(status, "replayed nonce")
        case .noCredentials, .otherRealmOrAlgorithm, .foreignNonce, .staleNonce, .exhausted, .forgotten:
            return nil
        }
    }

    /// Logs and counts what a challenge says about the request.
    private func noteChallenge(_ reason: DigestChallengeReason, credentials: DigestCredentials?,
                               method: String, source: String, now: Date) {
        let user = credentials?.username.lowercased() ?? ""
        let metadata: Logger.Metadata = [
            "client.address": "\(source)", "sip.user": "\(Self.loggable(user))", "sip.method": "\(method)"]
        switch reason {
        case .wrongResponse:
            metrics.failures.increment()
            // fail2ban matches this line: constant message, address and user as metadata.
            logger.warning("digest authentication failed", metadata: metadata)
            switch limiter.recordFailure(source: source, user: user, now: now) {
            case .blockedPair:
                logger.warning("digest user blocked at source", metadata: metadata)
            case .blockedSource:
                logger.warning("digest source blocked", metadata: metadata)
            case .counted:
                break
            }
        case .replayed:
            metrics.replays.increment()
            logger.warning("digest replay refused", metadata: metadata)
        case .noCredentials:
            logger.debug("digest challenge", metadata: metadata)
        case .otherRealmOrAlgorithm, .foreignNonce, .staleNonce, .exhausted, .forgotten:
            logger.debug("digest challenge", metadata: metadata.merging(["digest.reason": "\(reason.rawValue)"]) { $1 })
        }
    }

    /// A digest username as the log shows it: as sent when it is a valid
    /// user name, "-" otherwise. The username is the client's to choose, and
    /// one with spaces could forge the `client.address` fail2ban reads.
    static func loggable(_ username: String) -> String {
        SIPUsername.isValid(username) ? username : "-"
    }

    /// Parks the request, without a transaction, until the user is looked
    /// up: most such requests come from strangers and end in a stateless
    /// challenge, which must not leave a transaction retransmitting it.
    /// False when there is no room to park it: the caller handles it at
    /// once, as for a user not found.
    private func awaitUser(_ name: String, request: IncomingRequest, retry: @escaping () -> Void) -> Bool {
        let message = request.message
        let key = "\(message.callID ?? "")|\(message.cseq ?? 0)|\(message.method ?? "")|" +
            "\(request.source.transport):\(request.source.host):\(request.source.port)"
        switch parked.park(key, source: request.source.host) {
        case .retransmission:
            request.drop()  // a retransmission of a request already waiting
            return true
        case .full:
            metrics.parkingFull.increment()
            return false
        case .parked:
            break
        }
        request.waitWithoutTransaction()
        let first = awaitingUser[name] == nil
        awaitingUser[name, default: []].append { [weak self] in
            self?.parked.release(key)
            retry()
            // Handled again and still waiting (a call being forked): from
            // now on retransmissions belong to a transaction. A REGISTER,
            // kept stateless, gets none (`RegisterAnswers`).
            if request.finalStatus == nil && !request.isDropped && request.message.methodKind != .ack {
                request.beginTransaction()
            }
        }
        if first { lookUp(name) }
        return true
    }

    /// At shutdown, once no lookup will be answered: the requests still
    /// waiting are let go, and so answered 500 while the agent is still open.
    func abandonLookups() {
        awaitingUser.removeAll()
        parked.removeAll()
    }

    /// The answer to a lookup `lookUp` asked for: the requests waiting for
    /// that user are handled again.
    func userLoaded(_ name: String, record: UserRecord?) {
        if let record {
            credentials.insert(record)
        } else {
            // Bounded: made-up names start over rather than grow the set.
            if unknownUsers.count >= 100_000 { unknownUsers.removeAll() }
            unknownUsers.insert(name)
        }
        // Unknown users fall through to the challenge, like a wrong password.
        for retry in awaitingUser.removeValue(forKey: name) ?? [] { retry() }
    }
}
