@testable import API
import Foundation
import Hummingbird
import HummingbirdTesting
import Registrar
import XCTest
#if canImport(Glibc)
import Glibc
#endif

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

    func testDigestURIMustBeTheRequestURI() async throws {
        try await withServer { client, fixture in
            let uri = "/push/report?" + Self.form([("selector", Self.selector), ("pushToken", Self.fcmToken), ("pushappid", Self.appID)])
            let nonce = try Self.nonce(try await client.execute(uri: uri, method: .get), algorithm: .md5)
            // A response computed for the removal endpoint, replayed on the reporter.
            let authorization = Self.digestAuthorization(user: "alice", password: "alice-secret", nonce: nonce,
                                                         method: "GET", uri: "/push/remove", algorithm: .md5)
            let response = try await client.execute(uri: uri, method: .get, headers: [.authorization: authorization])
            XCTAssertEqual(response.status, .badRequest)
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

    func testFailedLoginsAreRateLimitedPerAddress() async throws {
        // Through APIRouter.make, as `sipwake serve` builds it.
        try await withServer(failedLoginsPerMinute: 3, router: .production) { client, fixture in
            for _ in 0..<3 {
                let failure = try await Self.postForm(client, "/push/report", Self.iPhoneReport(password: "guess"))
                XCTAssertEqual(failure.status, .unauthorized)
            }
            // The right password now gets 429: credentials are not checked.
            let limited = try await Self.postForm(client, "/push/report", Self.iPhoneReport())
            XCTAssertEqual(limited.status, .tooManyRequests, String(buffer: limited.body))
            let retryAfter = try XCTUnwrap(limited.headers[.retryAfter].flatMap { Int($0) })
            XCTAssertTrue((1...60).contains(retryAfter), "\(retryAfter)")
            XCTAssertEqual(try fixture.tuples.count(), 0)

            // Another client address (127.0.0.2 is loopback too) is not limited.
            let port = try XCTUnwrap(client.port)
            let status = try Self.rawPOSTStatus(from: "127.0.0.2", port: port, path: "/push/report",
                                                body: Self.form(Self.iPhoneReport()))
            XCTAssertEqual(status, 200)
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
                                    algorithm: DigestAlgorithm) -> String {
        func h(_ text: String) -> String { DigestHash.hash(text, algorithm: algorithm) }
        let cnonce = "0a4f113b", nc = "00000001"
        let ha1 = h("\(user):\(realm):\(password)")
        let ha2 = h("\(method):\(uri)")
        let response = h("\(ha1):\(nonce):\(nc):\(cnonce):auth:\(ha2)")
        return "Digest username=\"\(user)\", realm=\"\(realm)\", nonce=\"\(nonce)\", uri=\"\(uri)\", "
            + "algorithm=\(algorithm.rawValue), response=\"\(response)\", qop=auth, nc=\(nc), cnonce=\"\(cnonce)\""
    }

    /// A form POST over a socket bound to `source`, to reach the server from
    /// another client address than the test client's 127.0.0.1. Returns the status code.
    static func rawPOSTStatus(from source: String, port: Int, path: String, body: String) throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        func address(_ host: String, _ port: Int) -> sockaddr_in {
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET, host, &addr.sin_addr)
            return addr
        }
        var local = address(source, 0)
        var remote = address("127.0.0.1", port)
        let size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) } }
        XCTAssertEqual(bound, 0, "bind \(source)")
        let connected = withUnsafePointer(to: &remote) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, size) } }
        XCTAssertEqual(connected, 0, "connect")
        let request = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/x-www-form-urlencoded\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        let bytes = Array(request.utf8)
        XCTAssertEqual(bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }, bytes.count)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        let statusLine = String(decoding: received, as: UTF8.self).split(separator: "\r\n").first ?? ""
        let parts = statusLine.split(separator: " ")
        return try XCTUnwrap(parts.count >= 2 ? Int(parts[1]) : nil, "no status line: \(statusLine)")
    }
}
