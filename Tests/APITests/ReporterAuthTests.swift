@testable import API
import Foundation
import Hummingbird
import HummingbirdTesting
import Registrar
import XCTest

/// Authentication of the reporters: password, HTTP Digest, the other-user
/// attack, failed-login rate limit.
extension ReporterTests {
    // MARK: - Password

    func testWrongPasswordAndUnknownUserGetTheSame401AndStoreNothing() async throws {
        try await withServer { client, fixture in
            let wrong = try await Self.postForm(client, "/push/report", Self.iPhoneReport(password: "guess"))
            let unknown = try await Self.postForm(client, "/push/report", Self.iPhoneReport(user: "mallory", password: "guess"))
            XCTAssertEqual(wrong.status, .unauthorized)
            XCTAssertEqual(unknown.status, .unauthorized)
            XCTAssertEqual(String(buffer: wrong.body), String(buffer: unknown.body))
            XCTAssertEqual(try Self.json(wrong)["error"] as? String, "wrong username or password")
            XCTAssertEqual(wrong.headers[values: .wwwAuthenticate].count, 2)
            XCTAssertFalse(String(buffer: wrong.body).contains("guess"), "the answer never repeats the password")
            XCTAssertEqual(try fixture.tuples.count(), 0)
        }
    }

    func testUsernameIsCaseInsensitiveAndTupleGoesToStoredName() async throws {
        try await withServer { client, fixture in
            let response = try await Self.postForm(client, "/push/report", Self.iPhoneReport(user: "Alice"))
            XCTAssertEqual(response.status, .ok, String(buffer: response.body))
            XCTAssertEqual(try Self.tuple(response)["username"] as? String, "alice")
            XCTAssertEqual(try fixture.tuples.count(username: "alice"), 1)
        }
    }

    // MARK: - Digest

    func testNoCredentialsGetsOneDigestChallengePerAlgorithm() async throws {
        try await withServer { client, fixture in
            let query = Self.form([("selector", Self.selector), ("pushToken", Self.fcmToken), ("pushappid", Self.appID)])
            let response = try await client.execute(uri: "/push/report?\(query)", method: .get)
            XCTAssertEqual(response.status, .unauthorized)
            let challenges = response.headers[values: .wwwAuthenticate]
            XCTAssertEqual(challenges.count, 2)
            XCTAssertTrue(challenges[0].hasPrefix("Digest realm=\"\(Self.realm)\""), challenges[0])
            XCTAssertTrue(challenges[0].contains("algorithm=SHA-256"), challenges[0])
            XCTAssertTrue(challenges[1].contains("algorithm=MD5"), challenges[1])
            XCTAssertTrue(challenges.allSatisfy { $0.contains("qop=\"auth\"") })
            XCTAssertEqual(try fixture.tuples.count(), 0)
        }
    }

    func testDigestChallengeThenSuccessWithSHA256AndMD5() async throws {
        try await withServer { client, fixture in
            for (index, algorithm) in [DigestAlgorithm.sha256, .md5].enumerated() {
                let selector = index == 0 ? Self.selector : Self.selector2
                let token = index == 0 ? Self.apnsToken : Self.apnsToken2
                let uri = "/push/report?" + Self.form([
                    ("selector", selector), ("pushTokenIncomingCall", token), ("pushappid_incoming_call", Self.voipAppID),
                ])
                let challenge = try await client.execute(uri: uri, method: .get)
                XCTAssertEqual(challenge.status, .unauthorized)
                let nonce = try Self.nonce(challenge, algorithm: algorithm)

                let authorization = Self.digestAuthorization(user: "alice", password: "alice-secret", nonce: nonce,
                                                             method: "GET", uri: uri, algorithm: algorithm)
                let response = try await client.execute(uri: uri, method: .get, headers: [.authorization: authorization])
                XCTAssertEqual(response.status, .ok, "\(algorithm): \(String(buffer: response.body))")
                XCTAssertEqual(try Self.tuple(response)["username"] as? String, "alice")
            }
            XCTAssertEqual(try fixture.tuples.list(username: "alice").map(\.selector), [Self.selector, Self.selector2])
        }
    }

    func testDigestPOSTWithUsernameFieldOfSameAccount() async throws {
        try await withServer { client, fixture in
            let body = [("username", "alice"), ("selector", Self.selector), ("pushToken", Self.fcmToken), ("pushappid", Self.appID)]
            let challenge = try await Self.postForm(client, "/push/report", body)
            XCTAssertEqual(challenge.status, .unauthorized)
            let nonce = try Self.nonce(challenge, algorithm: .md5)
            let authorization = Self.digestAuthorization(user: "alice", password: "alice-secret", nonce: nonce,
                                                         method: "POST", uri: "/push/report", algorithm: .md5)
            let response = try await Self.postForm(client, "/push/report", body, headers: [.authorization: authorization])
            XCTAssertEqual(response.status, .ok, String(buffer: response.body))
            XCTAssertEqual(try fixture.tuples.count(username: "alice"), 1)
        }
    }

    func testDigestWithWrongPasswordIs401AndStoresNothing() async throws {
        try await withServer { client, fixture in
            let uri = "/push/report?" + Self.form([("selector", Self.selector), ("pushToken", Self.fcmToken), ("pushappid", Self.appID)])
            let nonce = try Self.nonce(try await client.execute(uri: uri, method: .get), algorithm: .sha256)
            let authorization = Self.digestAuthorization(user: "alice", password: "guess", nonce: nonce,
                                                         method: "GET", uri: uri, algorithm: .sha256)
            let response = try await client.execute(uri: uri, method: .get, headers: [.authorization: authorization])
            XCTAssertEqual(response.status, .unauthorized)
            XCTAssertEqual(response.headers[values: .wwwAuthenticate].count, 2)
            XCTAssertEqual(try fixture.tuples.count(), 0)
        }
    }

    func testDigestUserOtherThanTheAccountInTheRequestIs403() async throws {
        try await withServer { client, fixture in
            // alice answers the challenge with her own password but names bob's account.
            let uri = "/push/report?" + Self.form([
                ("username", "bob"), ("selector", Self.selector), ("pushToken", Self.fcmToken), ("pushappid", Self.appID),
            ])
            let nonce = try Self.nonce(try await client.execute(uri: uri, method: .get), algorithm: .sha256)
            let authorization = Self.digestAuthorization(user: "alice", password: "alice-secret", nonce: nonce,
                                                         method: "GET", uri: uri, algorithm: .sha256)
            let response = try await client.execute(uri: uri, method: .get, headers: [.authorization: authorization])
            XCTAssertEqual(response.status, .forbidden, String(buffer: response.body))
            XCTAssertEqual(try Self.json(response)["field"] as? String, "username")
            XCTAssertEqual(try fixture.tuples.count(), 0)
        }
    }

    /// `auth.nonce_max_uses` bounds the reporter's nonces as it bounds SIP's:
    /// the next nc past the limit gets a fresh, stale challenge.
    func testANonceServesAtMostTheConfiguredNumberOfRequests() async throws {
        try await withServer(nonceMaxUses: 2) { client, _ in
            let uri = "/push/report?" + Self.form([("selector", Self.selector), ("pushToken", Self.fcmToken), ("pushappid", Self.appID)])
            let nonce = try Self.nonce(try await client.execute(uri: uri, method: .get), algorithm: .md5)
            var statuses: [HTTPResponse.Status] = []
            for nc in ["00000001", "00000002", "00000003"] {
                let authorization = Self.digestAuthorization(user: "alice", password: "alice-secret", nonce: nonce,
                                                             method: "GET", uri: uri, algorithm: .md5, nc: nc)
                let response = try await client.execute(uri: uri, method: .get, headers: [.authorization: authorization])
                statuses.append(response.status)
                if nc == "00000003" {
                    XCTAssertTrue(response.headers[values: .wwwAuthenticate].allSatisfy { $0.contains("stale=true") })
                }
            }
            XCTAssertEqual(statuses, [.ok, .ok, .unauthorized])
        }
    }

    func testDigestURIMustBeTheRequestURI() async throws {
        try await withServer { client, fixture in
            let uri = "/push/report?" + Self.form([("selector", Self.selector), ("pushToken", Self.fcmToken), ("pushappid", Self.appID)])
            let nonce = try Self.nonce(try await client.execute(uri: uri, method: .get), algorithm: .md5)
            // A response computed for the removal endpoint, replayed on the reporter.
            let authorization = Self.digestAuthorization(user: "alice", password: "alice-secret", nonce: nonce,
                                                         method: "GET", uri: "/push/remove", algorithm: .md5)
            let response = try await client.execute(uri: uri, method: .get, headers: [.authorization: authorization])
            XCTAssertEqual(response.status, .badRequest)
            XCTAssertEqual(try Self.json(response)["error"] as? String, "the Digest uri does not match the request URI")
            // A response for this path with another query (another token): the query is part of the target.
            let otherQuery = "/push/report?" + Self.form([("selector", Self.selector), ("pushToken", Self.apnsToken), ("pushappid", Self.appID)])
            let forOther = Self.digestAuthorization(user: "alice", password: "alice-secret", nonce: nonce,
                                                    method: "GET", uri: otherQuery, algorithm: .md5)
            let moved = try await client.execute(uri: uri, method: .get, headers: [.authorization: forOther])
            XCTAssertEqual(moved.status, .badRequest)
            XCTAssertEqual(try Self.json(moved)["error"] as? String, "the Digest uri does not match the request URI")
            XCTAssertEqual(try fixture.tuples.count(), 0)
        }
    }

    func testOtherUserAttackNeverAttachesATokenToBob() async throws {
        try await withServer { client, fixture in
            // alice's password, bob's name: the password is checked against bob's HA1.
            let byPassword = try await Self.postForm(client, "/push/report", Self.iPhoneReport(user: "bob", password: "alice-secret"))
            XCTAssertEqual(byPassword.status, .unauthorized)
            // Same through the removal endpoint, on a tuple bob really has.
            let bobsOwn = try await Self.postForm(client, "/push/report", [
                ("username", "bob"), ("password", "bob-secret"), ("selector", Self.selector2),
                ("pushToken", Self.fcmToken), ("pushappid", Self.appID),
            ])
            XCTAssertEqual(bobsOwn.status, .ok)
            let removal = try await Self.postForm(client, "/push/remove", [
                ("username", "bob"), ("password", "alice-secret"), ("selector", Self.selector2),
            ])
            XCTAssertEqual(removal.status, .unauthorized)
            // alice's digest, bob's name.
            let body = Self.iPhoneReport(user: "bob", password: "").filter { $0.0 != "password" }
            let nonce = try Self.nonce(try await Self.postForm(client, "/push/report", body), algorithm: .md5)
            let authorization = Self.digestAuthorization(user: "alice", password: "alice-secret", nonce: nonce,
                                                         method: "POST", uri: "/push/report", algorithm: .md5)
            let byDigest = try await Self.postForm(client, "/push/report", body, headers: [.authorization: authorization])
            XCTAssertEqual(byDigest.status, .forbidden)

            XCTAssertEqual(try fixture.tuples.list(username: "bob").map(\.selector), [Self.selector2], "bob keeps only his own device")
            XCTAssertEqual(try fixture.tuples.count(username: "alice"), 0)
        }
    }

    func testStaleNonceGetsStaleChallengeAndIsNotAFailedLogin() async throws {
        try await withServer(failedLoginsPerMinute: 1) { client, fixture in
            // A genuine nonce of this server (same secret and realm), issued 400 s ago: older than its 300 s lifetime.
            let stale = NonceIssuer(secret: Array("reporter-test-secret".utf8), lifetime: 300, realm: Self.realm)
                .make(now: Date().addingTimeInterval(-400))
            let uri = "/push/report?" + Self.form([("selector", Self.selector), ("pushToken", Self.fcmToken), ("pushappid", Self.appID)])
            let authorization = Self.digestAuthorization(user: "alice", password: "alice-secret", nonce: stale,
                                                         method: "GET", uri: uri, algorithm: .sha256)
            let response = try await client.execute(uri: uri, method: .get, headers: [.authorization: authorization])
            XCTAssertEqual(response.status, .unauthorized)
            XCTAssertTrue(response.headers[values: .wwwAuthenticate].allSatisfy { $0.contains("stale=true") },
                          "\(response.headers[values: .wwwAuthenticate])")
            XCTAssertEqual(try fixture.tuples.count(), 0)

            // Retried with the fresh nonce: accepted, and the stale try did not use up the one allowed failure.
            let fresh = try Self.nonce(response, algorithm: .sha256)
            let retry = try await client.execute(uri: uri, method: .get, headers: [
                .authorization: Self.digestAuthorization(user: "alice", password: "alice-secret", nonce: fresh,
                                                         method: "GET", uri: uri, algorithm: .sha256),
            ])
            XCTAssertEqual(retry.status, .ok, String(buffer: retry.body))
            let wrong = try await Self.postForm(client, "/push/report", Self.iPhoneReport(password: "guess"))
            XCTAssertEqual(wrong.status, .unauthorized, "one failure is allowed")
            let limited = try await Self.postForm(client, "/push/report", Self.iPhoneReport())
            XCTAssertEqual(limited.status, .tooManyRequests)
        }
    }

    // MARK: - Rate limit

    func testFailedLoginsAreRateLimitedPerAddressAndUser() async throws {
        // Through APIRouter.make, as `sipwake serve` builds it.
        try await withServer(failedLoginsPerMinute: 3, router: .production) { client, fixture in
            for _ in 0..<3 {
                let failure = try await Self.postForm(client, "/push/report", Self.iPhoneReport(password: "guess"))
                XCTAssertEqual(failure.status, .unauthorized)
            }
            // alice's right password from this address now gets 429: credentials are not checked.
            let limited = try await Self.postForm(client, "/push/report", Self.iPhoneReport())
            XCTAssertEqual(limited.status, .tooManyRequests, String(buffer: limited.body))
            let retryAfter = try XCTUnwrap(limited.headers[.retryAfter].flatMap { Int($0) })
            XCTAssertTrue((1...60).contains(retryAfter), "\(retryAfter)")
            XCTAssertEqual(try fixture.tuples.count(), 0)

            // alice from another client address (127.0.0.2 is loopback too) is not limited.
            let port = try XCTUnwrap(client.port)
            let answer = try LoopbackHTTP.exchange(from: "127.0.0.2", port: port, method: "POST", path: "/push/report",
                                               headers: [("Content-Type", "application/x-www-form-urlencoded")],
                                               body: Self.form(Self.iPhoneReport()))
            XCTAssertEqual(answer.status, 200, answer.body)
            XCTAssertEqual(try fixture.tuples.count(username: "alice"), 1)
        }
    }

    func testDigestChallengesAloneDoNotCountAsFailedLogins() async throws {
        try await withServer(failedLoginsPerMinute: 2) { client, fixture in
            let uri = "/push/report?" + Self.form([("selector", Self.selector), ("pushToken", Self.fcmToken), ("pushappid", Self.appID)])
            for _ in 0..<5 {
                let challenge = try await client.execute(uri: uri, method: .get)
                XCTAssertEqual(challenge.status, .unauthorized)
            }
            let report = try await Self.postForm(client, "/push/report", Self.iPhoneReport())
            XCTAssertEqual(report.status, .ok, String(buffer: report.body))
        }
    }

    // MARK: - Client side of Digest, computed here

    /// The nonce of the challenge for `algorithm`.
    static func nonce(_ response: TestResponse, algorithm: DigestAlgorithm) throws -> String {
        let header = try XCTUnwrap(response.headers[values: .wwwAuthenticate].first { $0.contains("algorithm=\(algorithm.rawValue),") })
        let start = try XCTUnwrap(header.range(of: "nonce=\""))
        let rest = header[start.upperBound...]
        let end = try XCTUnwrap(rest.firstIndex(of: "\""))
        return String(rest[..<end])
    }

    /// RFC 7616 §3.4.1 with qop=auth, written out here rather than taken from
    /// the server's code: only the hash function H comes from DigestHash.
    static func digestAuthorization(user: String, password: String, nonce: String, method: String, uri: String,
                                    algorithm: DigestAlgorithm, nc: String = "00000001") -> String {
        func h(_ text: String) -> String { DigestHash.hash(text, algorithm: algorithm) }
        let cnonce = "0a4f113b"
        let ha1 = h("\(user):\(realm):\(password)")
        let ha2 = h("\(method):\(uri)")
        let response = h("\(ha1):\(nonce):\(nc):\(cnonce):auth:\(ha2)")
        return "Digest username=\"\(user)\", realm=\"\(realm)\", nonce=\"\(nonce)\", uri=\"\(uri)\", "
            + "algorithm=\(algorithm.rawValue), response=\"\(response)\", qop=auth, nc=\(nc), cnonce=\"\(cnonce)\""
    }
}
