import XCTest
@testable import Registrar

final class DigestAuthenticatorTests: XCTestCase {
    let realm = "sipwake.example"
    let t0 = RegisterFixture.t0
    let secret: [UInt8] = Array("a server secret of some length".utf8)
    lazy var issuer = NonceIssuer(secret: secret, lifetime: 300)
    lazy var authenticator = DigestAuthenticator(realm: realm, algorithms: [.md5, .sha256], nonces: issuer)
    let passwords = ["alice": "wonderland", "bob": "builder"]

    private func stored(_ user: String, _ algorithm: DigestAlgorithm) -> String? {
        passwords[user].map { DigestHash.ha1(username: user, realm: realm, password: $0, algorithm: algorithm) }
    }

    /// What a phone would send after a challenge carrying `nonce`.
    private func credentials(
        user: String = "alice", password: String? = nil, algorithm: DigestAlgorithm = .sha256,
        nonce: String, qop: String? = "auth", realm: String? = nil, method: String = "REGISTER"
    ) -> DigestCredentials {
        let realm = realm ?? self.realm
        let ha1 = DigestHash.ha1(username: user, realm: realm, password: password ?? passwords[user] ?? "x", algorithm: algorithm)
        let uri = "sip:\(self.realm)"
        let response = DigestHash.response(ha1: ha1, nonce: nonce, method: method, uri: uri, qop: qop,
                                           nc: qop == nil ? nil : "00000001", cnonce: qop == nil ? nil : "c0ffee", algorithm: algorithm)
        return DigestCredentials(username: user, realm: realm, nonce: nonce, uri: uri, response: response, algorithm: algorithm,
                                 qop: qop, nc: qop == nil ? nil : "00000001", cnonce: qop == nil ? nil : "c0ffee")
    }

    /// A tracker that has seen nothing yet, started before any test nonce.
    private func freshUses() -> NonceTracker { NonceTracker(startedAt: t0.addingTimeInterval(-1)) }

    /// One verify with a tracker of its own: each call is a first use.
    private func verify(_ credentials: DigestCredentials?, expectedUser: String? = "alice", at now: Date? = nil) -> DigestVerdict {
        var uses = freshUses()
        return authenticator.verify(method: "REGISTER", credentials: credentials, expectedUser: expectedUser, now: now ?? t0,
                                    nonceUses: &uses, stored: { self.stored($0, $1) })
    }

    private func expectPlainChallenge(_ verdict: DigestVerdict, _ reason: DigestChallengeReason,
                                      file: StaticString = #filePath, line: UInt = #line) {
        expectChallenge(verdict, from: authenticator, stale: false, reason: reason, now: t0, file: file, line: line)
    }

    /// A challenge for every algorithm of `from`, in order, with one fresh
    /// nonce of its own (every challenge has a new one).
    private func expectChallenge(_ verdict: DigestVerdict, from: DigestAuthenticator, stale: Bool,
                                 reason: DigestChallengeReason, now: Date,
                                 file: StaticString = #filePath, line: UInt = #line) {
        guard case .challenge(let challenges, let actual) = verdict else {
            return XCTFail("not a challenge: \(verdict)", file: file, line: line)
        }
        XCTAssertEqual(actual, reason, file: file, line: line)
        XCTAssertEqual(challenges.map(\.algorithm), from.algorithms, file: file, line: line)
        XCTAssertTrue(challenges.allSatisfy { $0.realm == from.realm && $0.stale == stale }, "\(challenges)",
                      file: file, line: line)
        XCTAssertEqual(Set(challenges.map(\.nonce)).count, 1, "one nonce for all algorithms", file: file, line: line)
        XCTAssertEqual(from.nonces.check(challenges[0].nonce, now: now), .valid, file: file, line: line)
    }

    /// The order is the operator's (`auth.algorithms`), not re-sorted by
    /// strength; a name listed twice is offered once.
    func testSHA256FirstWhenConfiguredSo() {
        let sha256First = DigestAuthenticator(realm: realm, algorithms: [.sha256, .md5, .sha256], nonces: issuer)
        XCTAssertEqual(sha256First.algorithms, [.sha256, .md5])
        XCTAssertEqual(sha256First.challenges(stale: false, now: t0).map(\.algorithm), [.sha256, .md5])
    }

    func testNoCredentialsChallengesInTheConfiguredOrder() {
        let verdict = verify(nil)
        guard case .challenge(let challenges, _) = verdict else { return XCTFail("\(verdict)") }
        XCTAssertEqual(challenges.map(\.algorithm), [.md5, .sha256])
        XCTAssertEqual(challenges.map(\.stale), [false, false])
        XCTAssertEqual(challenges.map(\.realm), [realm, realm])
        XCTAssertEqual(issuer.check(challenges[0].nonce, now: t0), .invalid, "the authenticator binds nonces to its realm")
        XCTAssertEqual(authenticator.nonces.check(challenges[0].nonce, now: t0), .valid)
    }

    /// Two phones challenged in the same millisecond get nonces of their own,
    /// so the second one's first answer is not taken for a replay of the first's.
    func testTwoPhonesChallengedInTheSameMillisecondBothAuthenticate() {
        var uses = freshUses()
        for user in ["alice", "bob"] {
            guard case .challenge(let challenges, _) = authenticator.verify(
                method: "REGISTER", credentials: nil, expectedUser: user, now: t0, nonceUses: &uses,
                stored: { self.stored($0, $1) }) else { return XCTFail("no challenge") }
            let answer = credentials(user: user, nonce: challenges[0].nonce)
            XCTAssertEqual(authenticator.verify(method: "REGISTER", credentials: answer, expectedUser: user, now: t0,
                                                nonceUses: &uses, stored: { self.stored($0, $1) }),
                           .authenticated(username: user), user)
        }
    }

    func testCorrectCredentialsAuthenticateWithEitherAlgorithm() {
        let nonce = authenticator.nonces.make(now: t0)
        XCTAssertEqual(verify(credentials(algorithm: .sha256, nonce: nonce)), .authenticated(username: "alice"))
        XCTAssertEqual(verify(credentials(algorithm: .md5, nonce: nonce)), .authenticated(username: "alice"))
    }

    func testCorrectCredentialsWithoutQopAuthenticate() {
        let nonce = authenticator.nonces.make(now: t0)
        XCTAssertEqual(verify(credentials(nonce: nonce, qop: nil)), .authenticated(username: "alice"))
    }

    func testUppercaseHexResponseIsAccepted() {
        var creds = credentials(nonce: authenticator.nonces.make(now: t0))
        creds.response = creds.response.uppercased()
        XCTAssertEqual(verify(creds), .authenticated(username: "alice"))
    }

    func testExpectedUserComparedCaseInsensitively() {
        let nonce = authenticator.nonces.make(now: t0)
        XCTAssertEqual(verify(credentials(nonce: nonce), expectedUser: "Alice"), .authenticated(username: "alice"))
    }

    func testAnyUserAcceptedWhenNoExpectedUser() {
        let nonce = authenticator.nonces.make(now: t0)
        XCTAssertEqual(verify(credentials(user: "bob", nonce: nonce), expectedUser: nil), .authenticated(username: "bob"))
    }

    func testWrongPasswordChallenges() {
        expectPlainChallenge(verify(credentials(password: "guess", nonce: authenticator.nonces.make(now: t0))), .wrongResponse)
    }

    func testUnknownUserChallengesLikeWrongPassword() {
        expectPlainChallenge(verify(credentials(user: "mallory", password: "x", nonce: authenticator.nonces.make(now: t0)), expectedUser: "mallory"), .wrongResponse)
    }

    func testResponseForAnotherMethodChallenges() {
        expectPlainChallenge(verify(credentials(nonce: authenticator.nonces.make(now: t0), method: "INVITE")), .wrongResponse)
    }

    func testRealmMismatchChallenges() {
        expectPlainChallenge(verify(credentials(nonce: authenticator.nonces.make(now: t0), realm: "other.example")), .otherRealmOrAlgorithm)
    }

    func testAlgorithmNotEnabledChallenges() {
        let shaOnly = DigestAuthenticator(realm: realm, algorithms: [.sha256], nonces: issuer)
        let creds = credentials(algorithm: .md5, nonce: shaOnly.nonces.make(now: t0))
        var uses = freshUses()
        let verdict = shaOnly.verify(method: "REGISTER", credentials: creds, expectedUser: "alice", now: t0,
                                     nonceUses: &uses, stored: { self.stored($0, $1) })
        expectChallenge(verdict, from: shaOnly, stale: false, reason: .otherRealmOrAlgorithm, now: t0)
        XCTAssertEqual(shaOnly.challenges(stale: false, now: t0).map(\.algorithm), [.sha256])
    }

    func testStaleNonceWithCorrectResponseChallengesWithStale() {
        let old = authenticator.nonces.make(now: t0)
        let later = t0.addingTimeInterval(301)
        let verdict = verify(credentials(nonce: old), at: later)
        expectChallenge(verdict, from: authenticator, stale: true, reason: .staleNonce, now: later)
        guard case .challenge(let challenges, _) = verdict else { return XCTFail() }
        XCTAssertEqual(challenges.map(\.stale), [true, true])
        XCTAssertEqual(authenticator.nonces.check(challenges[0].nonce, now: later), .valid)
    }

    func testStaleNonceWithWrongResponseChallengesWithoutStale() {
        let old = authenticator.nonces.make(now: t0)
        let later = t0.addingTimeInterval(301)
        expectChallenge(verify(credentials(password: "guess", nonce: old), at: later), from: authenticator,
                        stale: false, reason: .wrongResponse, now: later)
    }

    func testTamperedNonceChallengesWithoutStale() {
        let nonce = authenticator.nonces.make(now: t0)
        var bytes = Array(nonce)
        bytes[2] = bytes[2] == "A" ? "B" : "A"
        let tampered = String(bytes)
        XCTAssertEqual(authenticator.nonces.check(tampered, now: t0), .invalid)
        expectPlainChallenge(verify(credentials(nonce: tampered)), .foreignNonce)
    }

    func testOtherUsersCredentialsOnThisAORAreForbidden() {
        let verdict = verify(credentials(user: "bob", nonce: authenticator.nonces.make(now: t0)), expectedUser: "alice")
        XCTAssertEqual(verdict, .forbidden(reason: "Credentials do not match the AOR"))
    }

    func testUnsupportedQopIsBadRequest() {
        let verdict = verify(credentials(nonce: authenticator.nonces.make(now: t0), qop: "auth-int"))
        XCTAssertEqual(verdict, .badRequest(reason: "Unsupported qop"))
    }

    func testMalformedParametersAreBadRequest() {
        var uses = freshUses()
        let verdict = authenticator.verify(method: "REGISTER", parameters: ["username": "alice", "realm": realm], expectedUser: "alice",
                                           now: t0, nonceUses: &uses, stored: { self.stored($0, $1) })
        XCTAssertEqual(verdict, .badRequest(reason: "Malformed credentials"))
    }

    func testParametersPathAuthenticatesAndChallenges() {
        let c = credentials(nonce: authenticator.nonces.make(now: t0))
        let parameters = ["username": c.username, "realm": c.realm, "nonce": c.nonce, "uri": c.uri, "response": c.response,
                          "algorithm": "SHA-256", "qop": "auth", "nc": "00000001", "cnonce": "c0ffee"]
        var uses = freshUses()
        XCTAssertEqual(authenticator.verify(method: "REGISTER", parameters: parameters, expectedUser: "alice", now: t0,
                                            nonceUses: &uses, stored: { self.stored($0, $1) }),
                       .authenticated(username: "alice"))
        expectPlainChallenge(authenticator.verify(method: "REGISTER", parameters: nil, expectedUser: "alice", now: t0,
                                                  nonceUses: &uses, stored: { self.stored($0, $1) }),
                             .noCredentials)
    }

    func testConstantTimeEquals() {
        XCTAssertTrue(DigestAuthenticator.constantTimeEquals("abc", "abc"))
        XCTAssertFalse(DigestAuthenticator.constantTimeEquals("abc", "abd"))
        XCTAssertFalse(DigestAuthenticator.constantTimeEquals("abc", "abcd"))
    }

    func testChallengeHeaderValue() {
        let fresh = DigestChallenge(algorithm: .sha256, realm: "x", nonce: "n0", stale: false)
        XCTAssertEqual(fresh.headerValue, #"Digest realm="x", nonce="n0", algorithm=SHA-256, qop="auth""#)
        let stale = DigestChallenge(algorithm: .md5, realm: #"a"b"#, nonce: "n1", stale: true)
        XCTAssertEqual(stale.headerValue, #"Digest realm="a\"b", nonce="n1", algorithm=MD5, qop="auth", stale=true"#)
    }
}
