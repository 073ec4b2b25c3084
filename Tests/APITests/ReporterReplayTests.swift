@testable import API
import Foundation
import Hummingbird
import HummingbirdTesting
import Registrar
import TestSupport
import XCTest

/// Replay protection of the reporter's HTTP Digest (`ReporterNonceUses`):
/// qop=auth covers the method and the target, not the body, so a captured
/// POST sent again could carry any token; the (nonce, nc) it reuses is
/// refused before anything is written.
extension ReporterTests {
    func testAReplayedDigestReportGetsStaleAndChangesNothing() async throws {
        let log = LogRecorder()
        // A clock far from the real one: the replay tracker must run on the routes' clock.
        let clock = TestClock(start: Date(timeIntervalSince1970: 1_700_000_000))
        // One failed login allowed: the replays below must not count as failures.
        try await withServer(failedLoginsPerMinute: 1, clock: clock.clock, logger: log.logger) { client, fixture in
            // The replay tracker refuses nonces issued at or before its start (`forgotten`).
            clock.advance(by: 1)
            // bob's phone holds a token that a replay will try to take over.
            let bobToken = String(repeating: "b0", count: 32)
            let bobs = try await Self.postForm(client, "/push/report", Self.iPhoneReport(
                user: "bob", password: "bob-secret", selector: Self.selector2, voip: bobToken, other: bobToken))
            XCTAssertEqual(bobs.status, .ok, String(buffer: bobs.body))

            let body = [("selector", Self.selector), ("pushToken", Self.fcmToken), ("pushappid", Self.appID)]
            let nonce = try Self.nonce(try await Self.postForm(client, "/push/report", body), algorithm: .sha256)
            let captured = Self.digestAuthorization(user: "alice", password: "alice-secret", nonce: nonce,
                                                    method: "POST", uri: "/push/report", algorithm: .sha256)
            let first = try await Self.postForm(client, "/push/report", body, headers: [.authorization: captured])
            XCTAssertEqual(first.status, .ok, String(buffer: first.body))
            let before = try fixture.tuples.list()
            XCTAssertEqual(before.count, 2)
            clock.advance(by: 5)

            // The same request again, then the same header with bob's token in the body.
            let grab = [("selector", "A1B2C3D4E5F60718293A4B5C6D7E8F9012345678:0BADF00D"),
                        ("pushToken", bobToken), ("pushappid", Self.appID)]
            for replayBody in [body, grab] {
                let replay = try await Self.postForm(client, "/push/report", replayBody, headers: [.authorization: captured])
                XCTAssertEqual(replay.status, .unauthorized, String(buffer: replay.body))
                let challenges = replay.headers[values: .wwwAuthenticate]
                XCTAssertEqual(challenges.count, 2)
                XCTAssertTrue(challenges.allSatisfy { $0.contains("stale=true") }, "\(challenges)")
                XCTAssertTrue(try XCTUnwrap(Self.json(replay)["error"] as? String).contains("replayed"))
            }
            XCTAssertEqual(try fixture.tuples.list(), before, "no tuple written, refreshed or moved")

            // The next nonce-count of the same nonce is a new request: accepted.
            let next = Self.digestAuthorization(user: "alice", password: "alice-secret", nonce: nonce,
                                                method: "POST", uri: "/push/report", algorithm: .sha256, nc: "00000002")
            let accepted = try await Self.postForm(client, "/push/report", body, headers: [.authorization: next])
            XCTAssertEqual(accepted.status, .ok, String(buffer: accepted.body))
            let alices = try fixture.tuples.list(username: "alice")
            XCTAssertEqual(alices.map(\.selector), [Self.selector])
            XCTAssertGreaterThan(try XCTUnwrap(alices.first).lastSeenAt, try XCTUnwrap(before.first { $0.username == "alice" }).lastSeenAt)
            XCTAssertEqual(try fixture.tuples.list(username: "bob").map(\.tokenCalls), [bobToken])

            let replays = log.entries("reporter digest replay refused")
            XCTAssertEqual(replays.count, 2)
            XCTAssertTrue(replays.allSatisfy { $0.level == .warning })
            XCTAssertEqual(replays.first?.metadata["client.address"], "127.0.0.1")
            XCTAssertEqual(replays.first?.metadata["sip.user"], "alice")
            XCTAssertEqual(replays.first?.metadata["http.path"], "/push/report")
            XCTAssertTrue(log.entries("reporter login failed").isEmpty, "a replay is not a failed login")
        }
    }
}
