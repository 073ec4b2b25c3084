import Foundation

/// Digest authentication of SIP requests (RFC 3261 §22.4, RFC 2617 with
/// qop=auth, RFC 7616 / RFC 8760 for SHA-256). Pure: the user's HA1 comes
/// from a closure, the time from the caller.
///
/// Decision order for `verify`:
///
/// | # | condition | verdict |
/// |---|---|---|
/// | 1 | no credentials | challenge (`noCredentials`) |
/// | 2 | qop present and not `auth` | 400 |
/// | 3 | realm is not ours, or algorithm not enabled | challenge (`otherRealmOrAlgorithm`) |
/// | 4 | nonce not one of ours | challenge (`foreignNonce`) |
/// | 5 | user unknown or response wrong | challenge (`wrongResponse`, the same for both) |
/// | 6 | response right but nonce stale | challenge, stale=true (`staleNonce`) |
/// | 7 | response right but nc already used, nonce used up, or forgotten (`NonceTracker`) | challenge, stale=true (`replayed`, `exhausted`, `forgotten`) |
/// | 8 | right user for another AOR | 403 |
/// | 9 | otherwise | authenticated (the nonce use is recorded) |
///
/// The digest-uri is used as sent; checking that it designates the
/// Request-URI is the protocol layer's job (`SIPAuthenticator`, the reporter).
public struct DigestAuthenticator: Sendable {
    public let realm: String
    /// Enabled algorithms, in the order they are offered: the order given
    /// (`auth.algorithms`), duplicates dropped. RFC 8760 §2.4 reads that
    /// order as the server's preference; many clients take the first one.
    public let algorithms: [DigestAlgorithm]
    /// The issuer, bound to `realm`, so that a nonce issued for another realm
    /// does not validate here.
    public let nonces: NonceIssuer

    public init(realm: String, algorithms: [DigestAlgorithm], nonces: NonceIssuer) {
        self.realm = realm
        var unique: [DigestAlgorithm] = []
        for algorithm in algorithms where !unique.contains(algorithm) { unique.append(algorithm) }
        self.algorithms = unique
        var bound = nonces
        bound.realm = realm
        self.nonces = bound
    }

    /// Checks credentials and, when they are right, records the nonce's use
    /// in `nonceUses` (a replay is refused). `stored(username, algorithm)`
    /// returns the user's HA1 for that algorithm, nil when the user is
    /// unknown. `expectedUser` is the user the request acts for (for REGISTER
    /// the To user, RFC 3261 §10.3 step 3); nil when any authenticated user
    /// may send it.
    public func verify(
        method: String, credentials: DigestCredentials?, expectedUser: String?, now: Date,
        nonceUses: inout NonceTracker, stored: (String, DigestAlgorithm) -> String?
    ) -> DigestVerdict {
        guard let credentials else {
            return challenge(.noCredentials, now: now)
        }
        if let qop = credentials.qop, qop.lowercased() != "auth" {
            return .badRequest(reason: "Unsupported qop")
        }
        guard credentials.realm == realm, algorithms.contains(credentials.algorithm) else {
            return challenge(.otherRealmOrAlgorithm, now: now)
        }
        let validity = nonces.check(credentials.nonce, now: now)
        if validity == .invalid {
            return challenge(.foreignNonce, now: now)
        }

        // An unknown user is checked against a throw-away HA1 so that both
        // failures take the same path and give the same answer.
        let known = stored(credentials.username, credentials.algorithm)
        let ha1 = known ?? DigestHash.hash("\(credentials.username):\(realm):", algorithm: credentials.algorithm)
        let expected = DigestHash.response(
            ha1: ha1.lowercased(), nonce: credentials.nonce, method: method, uri: credentials.uri,
            qop: credentials.qop, nc: credentials.nc, cnonce: credentials.cnonce, algorithm: credentials.algorithm
        )
        let matches = Self.constantTimeEquals(expected, credentials.response.lowercased())
        guard known != nil, matches else {
            return challenge(.wrongResponse, now: now)
        }
        if validity == .stale {
            return challenge(.staleNonce, now: now)
        }
        if let expectedUser, expectedUser.lowercased() != credentials.username.lowercased() {
            return .forbidden(reason: "Credentials do not match the AOR")
        }
        let count: UInt32?
        if credentials.qop != nil {
            guard let parsed = NonceTracker.parseCount(credentials.nc) else {
                return .badRequest(reason: "Malformed nonce count")
            }
            count = parsed
        } else {
            count = nil
        }
        let issued = nonces.issueTime(of: credentials.nonce) ?? now
        switch nonceUses.use(nonce: credentials.nonce, issued: issued, count: count, now: now,
                             lifetime: nonces.lifetime) {
        case .fresh: return .authenticated(username: credentials.username)
        case .replayed: return challenge(.replayed, now: now)
        case .exhausted: return challenge(.exhausted, now: now)
        case .forgotten: return challenge(.forgotten, now: now)
        }
    }

    /// As `verify(method:credentials:...)`, from the raw parameter dictionary:
    /// 400 when a credentials header is present but malformed.
    public func verify(
        method: String, parameters: [String: String]?, expectedUser: String?, now: Date,
        nonceUses: inout NonceTracker, stored: (String, DigestAlgorithm) -> String?
    ) -> DigestVerdict {
        guard let parameters else {
            return verify(method: method, credentials: nil, expectedUser: expectedUser, now: now,
                          nonceUses: &nonceUses, stored: stored)
        }
        guard let credentials = DigestCredentials(parameters: parameters) else {
            return .badRequest(reason: "Malformed credentials")
        }
        return verify(method: method, credentials: credentials, expectedUser: expectedUser, now: now,
                      nonceUses: &nonceUses, stored: stored)
    }

    private func challenge(_ reason: DigestChallengeReason, now: Date) -> DigestVerdict {
        let stale: Bool
        switch reason {
        case .staleNonce, .replayed, .exhausted, .forgotten: stale = true
        case .noCredentials, .otherRealmOrAlgorithm, .foreignNonce, .wrongResponse: stale = false
        }
        return .challenge(challenges(stale: stale, now: now), reason: reason)
    }

    /// One challenge per enabled algorithm, in the order of `algorithms`
    /// (RFC 8760 §2.4), all with a fresh nonce.
    public func challenges(stale: Bool, now: Date) -> [DigestChallenge] {
        let nonce = nonces.make(now: now)
        return algorithms.map { DigestChallenge(algorithm: $0, realm: realm, nonce: nonce, stale: stale) }
    }

    /// Compares two digests without an early exit (`ConstantTimeComparison`).
    static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        ConstantTimeComparison.equals(a, b)
    }
}
