@testable import API
import Foundation
import Hummingbird
import HummingbirdTesting
import Prometheus
import Registrar
import TestSupport
import XCTest

/// The reporters' failed-login limit is per (client address, user): phones
/// behind one carrier NAT share an address, so one user's guesses must not
/// lock the others out. (Per address: ReporterAuthTests'
/// `testFailedLoginsAreRateLimitedPerAddressAndUser`.)
extension ReporterTests {
    func testAnAddressBlockedForOneUserLetsOtherUsersIn() async throws {
        let log = LogRecorder()
        try await withServer(failedLoginsPerMinute: 3, router: .production, logger: log.logger) { client, fixture in
            var alice: [HTTPResponse.Status] = []
            for _ in 0..<4 {
                alice.append(try await Self.postForm(client, "/push/report", Self.iPhoneReport(password: "guess")).status)
            }
            XCTAssertEqual(alice, [.unauthorized, .unauthorized, .unauthorized, .tooManyRequests])
            let right = try await Self.postForm(client, "/push/report", Self.iPhoneReport())
            XCTAssertEqual(right.status, .tooManyRequests, "alice is blocked at this address, even with her password")
            // The Digest username is the key too: alice's right digest is refused unchecked.
            let uri = "/push/report?" + Self.form([("selector", Self.selector), ("pushToken", Self.fcmToken), ("pushappid", Self.appID)])
            let challenge = try await client.execute(uri: uri, method: .get)
            XCTAssertEqual(challenge.status, .unauthorized, "a request without credentials is still challenged")
            let digest = Self.digestAuthorization(user: "alice", password: "alice-secret",
                                                  nonce: try Self.nonce(challenge, algorithm: .md5),
                                                  method: "GET", uri: uri, algorithm: .md5)
            let byDigest = try await client.execute(uri: uri, method: .get, headers: [.authorization: digest])
            XCTAssertEqual(byDigest.status, .tooManyRequests)

            // bob at the same address: his right password goes through...
            let bobsReport = Self.iPhoneReport(user: "bob", password: "bob-secret", selector: Self.selector2)
            let bob = try await Self.postForm(client, "/push/report", bobsReport)
            XCTAssertEqual(bob.status, .ok, String(buffer: bob.body))
            // ...and his wrong ones are counted on their own.
            var bobs: [HTTPResponse.Status] = []
            for _ in 0..<3 {
                bobs.append(try await Self.postForm(client, "/push/report", Self.iPhoneReport(user: "bob", password: "guess")).status)
            }
            XCTAssertEqual(bobs, [.unauthorized, .unauthorized, .unauthorized])
            let bobBlocked = try await Self.postForm(client, "/push/report", bobsReport)
            XCTAssertEqual(bobBlocked.status, .tooManyRequests)

            XCTAssertEqual(try fixture.tuples.count(username: "alice"), 0)
            XCTAssertEqual(try fixture.tuples.count(username: "bob"), 1)

            // What fail2ban matches: one warning per failure, constant message, dotted keys.
            let failures = log.entries("reporter login failed")
            XCTAssertEqual(failures.map { $0.metadata["sip.user"] }, ["alice", "alice", "alice", "bob", "bob", "bob"])
            XCTAssertTrue(failures.allSatisfy {
                $0.level == .warning && $0.metadata["client.address"] == "127.0.0.1"
                    && $0.metadata["http.path"] == "/push/report" && $0.metadata["auth.method"] == "password"
            }, "\(failures)")
            let blocks = log.entries("reporter user blocked at address")
            XCTAssertEqual(blocks.map { $0.metadata["sip.user"] }, ["alice", "bob"])
            XCTAssertTrue(blocks.allSatisfy { $0.level == .warning })
            XCTAssertEqual(log.entries("reporter login refused while blocked").count, 4)
            XCTAssertFalse(log.all.contains { entry in entry.metadata.values.contains { $0.contains("guess") || $0.contains("secret") } },
                           "no password in the log")
        }
    }

    func testWrongDigestResponsesCountForTheDigestUser() async throws {
        try await withServer(failedLoginsPerMinute: 2) { client, fixture in
            let uri = "/push/report?" + Self.form([("selector", Self.selector), ("pushToken", Self.fcmToken), ("pushappid", Self.appID)])
            func attempt(_ user: String, _ password: String) async throws -> HTTPResponse.Status {
                let nonce = try Self.nonce(try await client.execute(uri: uri, method: .get), algorithm: .sha256)
                let authorization = Self.digestAuthorization(user: user, password: password, nonce: nonce,
                                                             method: "GET", uri: uri, algorithm: .sha256)
                return try await client.execute(uri: uri, method: .get, headers: [.authorization: authorization]).status
            }
            let alice = [try await attempt("alice", "guess"), try await attempt("alice", "guess"),
                         try await attempt("alice", "alice-secret")]
            XCTAssertEqual(alice, [.unauthorized, .unauthorized, .tooManyRequests])
            let bob = try await attempt("bob", "bob-secret")
            XCTAssertEqual(bob, .ok)
            XCTAssertEqual(try fixture.tuples.count(username: "alice"), 0)
        }
    }

    /// A name no account can have is refused (400) before anything is
    /// looked up or counted: the failed-login table is keyed by the name, so
    /// huge or forged names (a second `client.address` for the log) never
    /// enter it, whichever way they come.
    func testAUsernameNoAccountCanHaveIsRefusedUncounted() async throws {
        let log = LogRecorder()
        let registry = PrometheusCollectorRegistry()
        try await withServer(failedLoginsPerMinute: 1, logger: log.logger, registry: registry) { client, fixture in
            let uri = "/push/report?" + Self.form([("selector", Self.selector), ("pushToken", Self.fcmToken), ("pushappid", Self.appID)])
            for name in ["mallory client.address=192.0.2.99", String(repeating: "m", count: 10_000)] {
                let nonce = try Self.nonce(try await client.execute(uri: uri, method: .get), algorithm: .md5)
                let authorization = Self.digestAuthorization(user: name, password: "guess", nonce: nonce,
                                                             method: "GET", uri: uri, algorithm: .md5)
                let byDigest = try await client.execute(uri: uri, method: .get, headers: [.authorization: authorization])
                XCTAssertEqual(byDigest.status, .badRequest)
                XCTAssertTrue(String(buffer: byDigest.body).contains(#""field":"username""#), String(buffer: byDigest.body))
                let byPassword = try await Self.postForm(client, "/push/report", Self.iPhoneReport(user: name, password: "guess"))
                XCTAssertEqual(byPassword.status, .badRequest)
            }
            XCTAssertTrue(log.entries("reporter login failed").isEmpty, "nothing counted as a failed login")
            // A `username` field is refused with the request's other fields; a
            // Digest username here, once per name.
            let refused = log.entries("reporter username refused")
            XCTAssertEqual(refused.count, 2)
            XCTAssertTrue(refused.allSatisfy { $0.level == .warning && $0.metadata["client.address"] == "127.0.0.1"
                && $0.metadata["sip.user"] == nil }, "\(refused)")
            XCTAssertTrue(registry.emitToString().contains(#"sipwake_http_refused_total{reason="bad-username"} 2"#))
            // The limit (1 failure) was not touched: alice's right password works.
            let right = try await Self.postForm(client, "/push/report", Self.iPhoneReport())
            XCTAssertEqual(right.status, .ok)
            XCTAssertEqual(try fixture.tuples.count(), 1)
        }
    }

    /// Failed logins and refusals while blocked are counted in metrics.
    func testFailedLoginsAndBlocksAreCounted() async throws {
        let registry = PrometheusCollectorRegistry()
        try await withServer(failedLoginsPerMinute: 2, registry: registry) { client, _ in
            for _ in 0..<3 {
                _ = try await Self.postForm(client, "/push/report", Self.iPhoneReport(password: "guess"))
            }
            let text = registry.emitToString()
            XCTAssertTrue(text.contains(#"sipwake_http_login_failures_total{api="reporter"} 2"#), text)
            XCTAssertTrue(text.contains(#"sipwake_http_blocked_total{api="reporter"} 1"#), text)
        }
    }

    func testTheBlockLiftsAfterItsTime() async throws {
        let clock = TestClock()
        try await withServer(failedLoginsPerMinute: 2, clock: clock.clock) { client, fixture in
            for _ in 0..<2 {
                let failure = try await Self.postForm(client, "/push/report", Self.iPhoneReport(password: "guess"))
                XCTAssertEqual(failure.status, .unauthorized)
            }
            let blocked = try await Self.postForm(client, "/push/report", Self.iPhoneReport())
            XCTAssertEqual(blocked.status, .tooManyRequests)
            XCTAssertEqual(blocked.headers[.retryAfter], "60")
            clock.advance(by: 59)
            let almost = try await Self.postForm(client, "/push/report", Self.iPhoneReport())
            XCTAssertEqual(almost.status, .tooManyRequests)
            XCTAssertEqual(almost.headers[.retryAfter], "1")
            clock.advance(by: 1)
            let lifted = try await Self.postForm(client, "/push/report", Self.iPhoneReport())
            XCTAssertEqual(lifted.status, .ok, String(buffer: lifted.body))
            XCTAssertEqual(try fixture.tuples.count(username: "alice"), 1)
        }
    }

    func testASuccessForgetsThePairsFailures() async throws {
        try await withServer(failedLoginsPerMinute: 3) { client, _ in
            let uri = "/push/report?" + Self.form([("selector", Self.selector), ("pushToken", Self.fcmToken), ("pushappid", Self.appID)])
            var statuses: [HTTPResponse.Status] = []
            // Two failures, then a success by password, two more, a success by Digest, two more: never three in a row.
            for password in ["guess", "guess", "alice-secret", "guess", "guess", "digest", "guess", "guess", "alice-secret"] {
                if password == "digest" {
                    let nonce = try Self.nonce(try await client.execute(uri: uri, method: .get), algorithm: .sha256)
                    let authorization = Self.digestAuthorization(user: "alice", password: "alice-secret", nonce: nonce,
                                                                 method: "GET", uri: uri, algorithm: .sha256)
                    statuses.append(try await client.execute(uri: uri, method: .get, headers: [.authorization: authorization]).status)
                } else {
                    statuses.append(try await Self.postForm(client, "/push/report", Self.iPhoneReport(password: password)).status)
                }
            }
            XCTAssertEqual(statuses, [.unauthorized, .unauthorized, .ok, .unauthorized, .unauthorized, .ok,
                                      .unauthorized, .unauthorized, .ok])
        }
    }
}
