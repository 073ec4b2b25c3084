import Foundation

/// Digest authentication of SIP requests (RFC 3261 §22.4, RFC 2617 with
/// qop=auth, RFC 7616 / RFC 8760 for SHA-256). Pure: the user's HA1 comes
/// from a closure, the time from the caller.
///
/// Decision order for `verify`:
///
/// | # | condition | verdict |
/// |---|---|---|
/// | 1 | no credentials | challenge |
/// | 2 | qop present and not `auth` | 400 |
/// | 3 | realm is not ours, or algorithm not enabled | challenge |
/// | 4 | nonce not one of ours | challenge |
/// | 5 | user unknown or response wrong | challenge (the same for both) |
/// | 6 | response right but nonce stale | challenge, stale=true |
/// | 7 | right user for another AOR | 403 |
/// | 8 | otherwise | authenticated |
///
/// The digest-uri is used as sent; checking that it designates the
/// Request-URI is the SIP layer's job.
public struct DigestAuthenticator: Sendable {
    public let realm: String
    /// Enabled algorithms, in the order they are offered: SHA-256 first.
    public let algorithms: [DigestAlgorithm]
    /// The issuer, bound to `realm`, so that a nonce issued for another realm
    /// does not validate here.
    public let nonces: NonceIssuer

    public init(realm: String, algorithms: [DigestAlgorithm], nonces: NonceIssuer) {
        self.realm = realm
        var unique: [DigestAlgorithm] = []
        for algorithm in algorithms where !unique.contains(algorithm) { unique.append(algorithm) }
        self.algorithms = unique.sorted { $0.preferenceRank < $1.preferenceRank }
        var bound = nonces
        bound.realm = realm
        self.nonces = bound
    }

    /// Checks credentials. `stored(username, algorithm)` returns the user's
    /// HA1 for that algorithm, nil when the user is unknown. `expectedUser` is
    /// the user the request acts for (for REGISTER the To user, RFC 3261 §10.3
    /// step 3); nil when any authenticated user may send it.
    public func verify(
        method: String, credentials: DigestCredentials?, expectedUser: String?, now: Date,
        stored: (String, DigestAlgorithm) -> String?
    ) -> DigestVerdict {
        guard let credentials else {
            return .challenge(challenges(stale: false, now: now))
        }
        if let qop = credentials.qop, qop.lowercased() != "auth" {
            return .badRequest(reason: "Unsupported qop")
        }
        guard credentials.realm == realm, algorithms.contains(credentials.algorithm) else {
            return .challenge(challenges(stale: false, now: now))
        }
        let validity = nonces.check(credentials.nonce, now: now)
        if validity == .invalid {
            return .challenge(challenges(stale: false, now: now))
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
            return .challenge(challenges(stale: false, now: now))
        }
        if validity == .stale {
            return .challenge(challenges(stale: true, now: now))
        }
        if let expectedUser, expectedUser.lowercased() != credentials.username.lowercased() {
            return .forbidden(reason: "Credentials do not match the AOR")
        }
        return .authenticated(username: credentials.username)
    }

    /// As `verify(method:credentials:...)`, from the raw parameter dictionary:
    /// 400 when a credentials header is present but malformed.
    public func verify(
        method: String, parameters: [String: String]?, expectedUser: String?, now: Date,
        stored: (String, DigestAlgorithm) -> String?
    ) -> DigestVerdict {
        guard let parameters else {
            return verify(method: method, credentials: nil, expectedUser: expectedUser, now: now, stored: stored)
        }
        guard let credentials = DigestCredentials(parameters: parameters) else {
            return .badRequest(reason: "Malformed credentials")
        }
        return verify(method: method, credentials: credentials, expectedUser: expectedUser, now: now, stored: stored)
    }

    /// One challenge per enabled algorithm, SHA-256 first (RFC 8760 §2.4),
    /// all with a fresh nonce.
    public func challenges(stale: Bool, now: Date) -> [DigestChallenge] {
        let nonce = nonces.make(now: now)
        return algorithms.map { DigestChallenge(algorithm: $0, realm: realm, nonce: nonce, stale: stale) }
    }

    /// Compares two digests without an early exit, so the time taken does not
    /// tell an attacker how many leading characters were right.
    static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}
