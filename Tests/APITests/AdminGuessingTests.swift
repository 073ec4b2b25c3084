@testable import API
import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

/// Wrong admin bearer tokens are counted per client address: past
/// `admin_failures_per_minute` the address gets 429 without its token being
/// compared; other addresses are not affected.
@Suite struct AdminGuessingTests {
    static func status(_ client: any TestClientProtocol, token: String?) async throws -> HTTPResponse.Status {
        try await client.execute(uri: "/admin/v1/tuples", method: .get, headers: AdminTests.headers(token: token)).status
    }

    @Test func guessesEndIn429ForThatAddressOnly() async throws {
        let log = LogRecorder()
        try await AdminTests.withApp(adminFailuresPerMinute: 3, logger: log.logger) { client, _ in
            var statuses: [HTTPResponse.Status] = []
            for guess in 1...4 {
                statuses.append(try await Self.status(client, token: "guess-\(guess)-0123456789abcdef"))
            }
            #expect(statuses == [.unauthorized, .unauthorized, .unauthorized, .tooManyRequests])

            // The right token from there: 429 too, the token not compared.
            let refused = try await client.execute(uri: "/admin/v1/tuples", method: .get, headers: AdminTests.headers())
            #expect(refused.status == .tooManyRequests)
            let wait = try #require(refused.headers[.retryAfter].flatMap { Int($0) })
            #expect((1...60).contains(wait))
            #expect(refused.headers[.contentType] == "application/json")
            #expect(refused.headers[.wwwAuthenticate] == nil)
            let body = try JSONSerialization.jsonObject(with: Data(refused.body.readableBytesView)) as? [String: Any]
            #expect(body?["error"] as? String == "too many wrong bearer tokens from this address; retry later")
            #expect(try await Self.status(client, token: nil) == .tooManyRequests)

            // Another client address with the right token: served; its own wrong token: its own count.
            let port = try #require(client.port)
            let other = try LoopbackHTTP.exchange(from: "127.0.0.2", port: port, method: "GET", path: "/admin/v1/tuples",
                                              headers: [("Authorization", "Bearer \(AdminTests.token)")])
            #expect(other.status == 200, "\(other.body)")
            let otherGuess = try LoopbackHTTP.exchange(from: "127.0.0.2", port: port, method: "GET", path: "/admin/v1/tuples",
                                                   headers: [("Authorization", "Bearer guess-0123456789abcdef")])
            #expect(otherGuess.status == 401)

            // What fail2ban matches: one warning per wrong token, then one when the address is blocked.
            let failures = log.entries("admin request with wrong bearer token")
            #expect(failures.map { $0.metadata["client.address"] } == ["127.0.0.1", "127.0.0.1", "127.0.0.1", "127.0.0.2"])
            #expect(failures.allSatisfy { $0.level == .warning && $0.metadata["http.path"] == "/admin/v1/tuples" })
            let blocks = log.entries("admin client address blocked")
            #expect(blocks.count == 1)
            #expect(blocks.first?.level == .warning)
            #expect(blocks.first?.metadata == ["client.address": "127.0.0.1", "http.path": "/admin/v1/tuples"])
            #expect(log.entries("admin request refused while blocked").count == 3)
            #expect(!log.all.contains { $0.metadata.values.contains { $0.contains("guess") || $0.contains(AdminTests.token) } },
                    "no token in the log")
        }
    }

    @Test func theBlockLiftsAfterItsTime() async throws {
        let clock = TestClock()
        try await AdminTests.withApp(adminFailuresPerMinute: 2, clock: clock.clock) { client, _ in
            #expect(try await Self.status(client, token: "guess-1-0123456789abcdef") == .unauthorized)
            #expect(try await Self.status(client, token: "guess-2-0123456789abcdef") == .unauthorized)
            let blocked = try await client.execute(uri: "/admin/v1/tuples", method: .get, headers: AdminTests.headers())
            #expect(blocked.status == .tooManyRequests)
            #expect(blocked.headers[.retryAfter] == "60")
            clock.advance(by: 59)
            #expect(try await Self.status(client, token: AdminTests.token) == .tooManyRequests)
            clock.advance(by: 1)
            #expect(try await Self.status(client, token: AdminTests.token) == .ok)
        }
    }

    @Test func aRightTokenForgetsTheFailuresAndAMissingOneIsNoGuess() async throws {
        try await AdminTests.withApp(adminFailuresPerMinute: 3) { client, _ in
            var statuses: [HTTPResponse.Status] = []
            for token in ["guess-1-0123456789abcdef", "guess-2-0123456789abcdef", AdminTests.token,
                          nil, nil, nil, "guess-3-0123456789abcdef", "guess-4-0123456789abcdef", AdminTests.token] {
                statuses.append(try await Self.status(client, token: token))
            }
            #expect(statuses == [.unauthorized, .unauthorized, .ok, .unauthorized, .unauthorized, .unauthorized,
                                 .unauthorized, .unauthorized, .ok])
        }
    }
}
