import Foundation
import XCTest

/// INVITEs that sipwake answers itself, before any fork: the open-relay
/// refusal, the caller's digest challenge, unknown users, Max-Forwards, and a
/// callee with no device at all; and which of them leave a `rejected` call
/// record. A Sofia-SIP user agent sends them over loopback to a real server.
final class CallRoutingTests: IntegrationTestCase {
    /// The records of every call, newest first, once there are `count`
    /// rejected ones (waits up to 10 s). The writer keeps the order of
    /// saves, so a refusal recorded after another request proves that
    /// request left no record if it is not there.
    private func records(_ server: SipwakeProcess, rejected count: Int,
                         file: StaticString = #filePath, line: UInt = #line) async throws -> [[String: Any]] {
        var rows: [[String: Any]] = []
        for _ in 0..<100 {
            let list = try server.cli(["calls", "list", "--json"])
            rows = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]] ?? []
            if rows.filter({ $0["outcome"] as? String == "rejected" }).count >= count { return rows }
            try await Task.sleep(for: .milliseconds(100))
        }
        XCTFail("not \(count) rejected calls: \(rows)", file: file, line: line)
        return rows
    }

    /// The one record there is, once it is the rejected call's.
    private func onlyRejectedCall(_ server: SipwakeProcess, file: StaticString = #filePath,
                                  line: UInt = #line) async throws -> [String: Any] {
        let rows = try await records(server, rejected: 1, file: file, line: line)
        XCTAssertEqual(rows.count, 1, "\(rows)", file: file, line: line)
        return rows.first ?? [:]
    }

    private func invite(_ ua: SofiaTestUA, to uri: String, from: String = "<sip:pbx@127.0.0.1>;tag=p1",
                        headers: [(String, String)] = [], maxForwards: Int = 70) async -> TestResponse {
        await ua.send(method: "INVITE", uri: uri, from: from, to: "<\(uri)>", callID: UUID().uuidString, cseq: 1,
                      contacts: ["<sip:pbx@127.0.0.1>"], extraHeaders: headers, maxForwards: maxForwards)
    }

    func testForeignDomainFromAnUntrustedSourceIsNotRelayed() async throws {
        let (_, ua) = try await startServerAndUA()
        let response = await invite(ua, to: "sip:victim@example.net")
        XCTAssertEqual(response.status, 403)
    }

    func testFailedCredentialsAreRecordedButNeitherAChallengeThePhoneAnswersNorARelayProbe() async throws {
        let (server, ua) = try await startServerAndUA()
        let probe = await invite(ua, to: "sip:victim@example.net", from: "<sip:mallory@evil.example>;tag=m1")
        XCTAssertEqual(probe.status, 403, "an attacker's probe: counted, not recorded")
        let challenge = await invite(ua, to: "sip:alice@localhost", from: "<sip:bob@localhost>;tag=b1")
        XCTAssertEqual(challenge.status, 407, "the normal first step of digest: not recorded")
        let parameters = try XCTUnwrap(Self.proxyChallenge(challenge.text))
        // The right password on a nonce sipwake did not issue (a phone after
        // a change of auth.secret): challenged again, which the phone answers
        // by itself; not recorded either.
        let foreign = DigestClient.authorization(challenge: parameters, method: "INVITE", uri: "sip:alice@localhost",
                                                 user: "bob", password: "bob-secret", nonceOverride: "bm90LWlzc3VlZA")
        let rechallenged = await invite(ua, to: "sip:alice@localhost", from: "<sip:bob@localhost>;tag=b0",
                                        headers: [("Proxy-Authorization", foreign)])
        XCTAssertEqual(rechallenged.status, 407)
        let wrong = DigestClient.authorization(challenge: parameters, method: "INVITE", uri: "sip:alice@localhost",
                                               user: "bob", password: "not-bobs-password")
        let refused = await invite(ua, to: "sip:alice@localhost", from: "\"Bob\" <sip:bob@localhost>;tag=b2",
                                   headers: [("Proxy-Authorization", wrong), ("X-Push-ID", "pair-wrong-password")])
        XCTAssertEqual(refused.status, 407)

        let record = try await onlyRejectedCall(server)
        XCTAssertEqual(record["callee"] as? String, "alice")
        XCTAssertEqual(record["caller"] as? String, "sip:bob@localhost")
        XCTAssertEqual(record["caller_display_name"] as? String, "Bob")
        XCTAssertEqual(record["pairing_id"] as? String, "pair-wrong-password")
        XCTAssertEqual(record["final_status"] as? Int, 407)
        XCTAssertEqual(record["reason"] as? String, "credentials failed: wrong password")
        XCTAssertEqual(record["started_at"] as? String, record["ended_at"] as? String)
        XCTAssertEqual((record["pushes"] as? [Any])?.count, 0)
        XCTAssertEqual((record["branches"] as? [Any])?.count, 0)

        // The CLI lists and shows it with the reason.
        let list = try server.cli(["calls", "list", "--outcome", "rejected"])
        let row = try XCTUnwrap(list.stdout.split(separator: "\n").first { $0.contains("pair-wrong-password") }, list.stdout)
        XCTAssertTrue(row.hasSuffix("  rejected  407     0       0         -       0.0s      credentials failed: wrong password"),
                      String(row))
        let story = try server.cli(["calls", "show", "pair-wrong-password"]).stdout
        XCTAssertTrue(story.contains("reason        credentials failed: wrong password\n"), story)
        let timeline = story.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
        XCTAssertTrue(timeline.contains { $0.hasPrefix("+0ms call rejected status=407 source=udp:127.0.0.1:") }, story)
    }

    func testAReplayedNonceAndABlockedUserAreRecorded() async throws {
        let (server, ua) = try await startServerAndUA(config: "[auth]\nmax_failures_per_user = 1")
        let challenge = await invite(ua, to: "sip:alice@localhost", from: "<sip:bob@localhost>;tag=b1")
        let parameters = try XCTUnwrap(Self.proxyChallenge(challenge.text))
        let good = DigestClient.authorization(challenge: parameters, method: "INVITE", uri: "sip:alice@localhost",
                                              user: "bob", password: "bob-secret")
        let call = await invite(ua, to: "sip:alice@localhost", from: "<sip:bob@localhost>;tag=b2",
                                headers: [("Proxy-Authorization", good)])
        XCTAssertEqual(call.status, 480, "authenticated; alice has no device")
        // The same credentials again: a captured INVITE sent again.
        let replay = await invite(ua, to: "sip:alice@localhost", from: "<sip:bob@localhost>;tag=b3",
                                  headers: [("Proxy-Authorization", good)])
        XCTAssertEqual(replay.status, 407)
        // alice's wrong password once (the limit), then she is blocked from this address.
        let wrong = DigestClient.authorization(challenge: parameters, method: "INVITE", uri: "sip:bob@localhost",
                                               user: "alice", password: "guess")
        for (tag, status) in [("a1", 407), ("a2", 403)] {
            let attempt = await invite(ua, to: "sip:bob@localhost", from: "<sip:alice@localhost>;tag=\(tag)",
                                       headers: [("Proxy-Authorization", wrong)])
            XCTAssertEqual(attempt.status, status)
        }
        let rows = try await records(server, rejected: 3)
        XCTAssertEqual(rows.filter { $0["outcome"] as? String == "rejected" }.compactMap { $0["reason"] as? String }.sorted(), [
            "credentials failed: replayed nonce",
            "credentials failed: too many failed attempts, blocked from this address",
            "credentials failed: wrong password",
        ])
        XCTAssertEqual(rows.filter { $0["outcome"] as? String == "no-devices" }.count, 1)
    }

    func testUntrustedCallerIsChallengedWithProxyAuthenticate() async throws {
        let (_, ua) = try await startServerAndUA()
        let response = await invite(ua, to: "sip:alice@localhost", from: "<sip:bob@localhost>;tag=b1")
        XCTAssertEqual(response.status, 407)
        XCTAssertTrue(response.text.contains("Proxy-Authenticate: Digest"), response.text)
    }

    func testAuthenticatedCallerWithAnotherUsersCredentialsIsForbidden() async throws {
        let (server, ua) = try await startServerAndUA()
        let challenge = await invite(ua, to: "sip:alice@localhost", from: "<sip:bob@localhost>;tag=b1")
        let parameters = try XCTUnwrap(Self.proxyChallenge(challenge.text))
        // alice's valid credentials in an INVITE that claims to come from bob.
        let authorization = DigestClient.authorization(challenge: parameters, method: "INVITE", uri: "sip:alice@localhost",
                                                       user: "alice", password: "alice-secret")
        let response = await ua.send(method: "INVITE", uri: "sip:alice@localhost", from: "<sip:bob@localhost>;tag=b2",
                                     to: "<sip:alice@localhost>", callID: UUID().uuidString, cseq: 2,
                                     contacts: ["<sip:bob@127.0.0.1>"],
                                     extraHeaders: [("Proxy-Authorization", authorization)])
        XCTAssertEqual(response.status, 403)
        let record = try await onlyRejectedCall(server)
        XCTAssertEqual(record["reason"] as? String, "credentials failed: another user's credentials")
        XCTAssertEqual(record["caller"] as? String, "sip:bob@localhost")
        XCTAssertEqual(record["final_status"] as? Int, 403)
    }

    func testCallToAForeignDomainWithoutOutboundProxyIsForbiddenEvenWithCredentials() async throws {
        let (_, ua) = try await startServerAndUA()
        let response = await invite(ua, to: "sip:carol@example.net", from: "<sip:bob@localhost>;tag=b1",
                                    headers: [("Proxy-Authorization", "Digest username=\"bob\", realm=\"localhost\", nonce=\"x\", uri=\"sip:carol@example.net\", response=\"0\"")])
        XCTAssertEqual(response.status, 403, "no [calls] outbound_proxy: sipwake relays nowhere")
    }

    func testWithAnOutboundProxyOnlyLocalUsersAreChallengedOthersForbidden() async throws {
        let (_, ua) = try await startServerAndUA(config: "[calls]\noutbound_proxy = \"sip:127.0.0.9:5999\"")
        let local = await invite(ua, to: "sip:carol@example.net", from: "<sip:bob@localhost>;tag=b1")
        XCTAssertEqual(local.status, 407, "one of our users: authenticate first")
        let stranger = await invite(ua, to: "sip:carol@example.net", from: "<sip:mallory@evil.example>;tag=m1")
        XCTAssertEqual(stranger.status, 403, "never an open relay")
    }

    func testTrustedPeerCallingAnUnknownUserGets404AndTheCallIsRecorded() async throws {
        let (server, ua) = try await startServerAndUA(config: "[auth]\ntrusted_peers = [\"127.0.0.1\"]")
        let response = await invite(ua, to: "sip:Nobody@localhost", headers: [("X-Push-ID", "pair-nobody")])
        XCTAssertEqual(response.status, 404)
        let record = try await onlyRejectedCall(server)
        XCTAssertEqual(record["callee"] as? String, "nobody")
        XCTAssertEqual(record["caller"] as? String, "sip:pbx@127.0.0.1")
        XCTAssertEqual(record["pairing_id"] as? String, "pair-nobody")
        XCTAssertEqual(record["final_status"] as? Int, 404)
        XCTAssertEqual(record["reason"] as? String, "unknown user")
        let shown = try server.cli(["calls", "show", "pair-nobody", "--json"])
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["reason"] as? String, "unknown user", shown.stdout)
    }

    func testAPeersInviteWithoutASIPRequestURIIsRecordedAStrangersIsNot() async throws {
        let server = try await startServer(config: "[auth]\ntrusted_peers = [\"127.0.0.2\"]")
        for address in ["127.0.0.1", "127.0.0.2"] {
            let socket = try RawSIPSocket(udpTo: server.port, from: address)
            socket.send(socket.request(method: "INVITE", uri: "tel:+14155550123"))
            let answer = try XCTUnwrap(socket.receive(timeout: 5), "no answer to \(address)")
            XCTAssertTrue(answer.hasPrefix("SIP/2.0 400 "), answer)
        }
        let record = try await onlyRejectedCall(server)
        XCTAssertEqual(record["reason"] as? String, "no SIP Request-URI")
        XCTAssertEqual(record["callee"] as? String, "")
    }

    func testCallToAUserWithNoDeviceGets480AtOnce() async throws {
        let (server, ua) = try await startServerAndUA(config: "[auth]\ntrusted_peers = [\"127.0.0.1\"]")
        let started = ContinuousClock.now
        let response = await invite(ua, to: "sip:alice@localhost")
        XCTAssertEqual(response.status, 480)
        // Not held for the 30 s wake window (a generous bound: the point is "not the window").
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(20))
        let show = try server.cli(["calls", "list", "--json"])
        XCTAssertEqual(show.status, 0, show.stderr)
        XCTAssertTrue(show.stdout.contains("no-devices"), show.stdout)
    }

    func testMaxForwardsZeroGets483AndTheCallIsRecorded() async throws {
        let (server, ua) = try await startServerAndUA(config: "[auth]\ntrusted_peers = [\"127.0.0.1\"]")
        let response = await invite(ua, to: "sip:alice@localhost", maxForwards: 0)
        XCTAssertEqual(response.status, 483)
        let record = try await onlyRejectedCall(server)
        XCTAssertEqual(record["callee"] as? String, "alice")
        XCTAssertEqual(record["reason"] as? String, "too many hops")
        XCTAssertEqual(record["final_status"] as? Int, 483)
    }

    func testForgedRouteIsRefused() async throws {
        let (server, ua) = try await startServerAndUA(config: "[auth]\ntrusted_peers = [\"127.0.0.1\"]")
        // Looks like sipwake's Record-Route, but its token was not signed by this server.
        let response = await ua.send(method: "BYE", uri: "sip:victim@203.0.113.9", from: "<sip:a@localhost>;tag=a",
                                     to: "<sip:b@localhost>;tag=b", callID: UUID().uuidString, cseq: 2,
                                     extraHeaders: [("Route", "<sip:127.0.0.1:\(server.port);lr;swk=udp~203.0.113.9~5060~0.0011223344556677>")])
        XCTAssertEqual(response.status, 403)
        XCTAssertTrue(server.log.contains("forged route refused"), server.log)
    }

    func testCancelForNoPendingInviteGets481() async throws {
        let (_, ua) = try await startServerAndUA()
        let response = await ua.send(method: "CANCEL", uri: "sip:alice@localhost", from: "<sip:pbx@127.0.0.1>;tag=c",
                                     to: "<sip:alice@localhost>", callID: UUID().uuidString, cseq: 1)
        XCTAssertEqual(response.status, 481)
    }

    /// The parameters of the first Proxy-Authenticate challenge in a response.
    static func proxyChallenge(_ text: String) -> [String: String]? {
        challenge(text, header: "Proxy-Authenticate")
    }

    /// The parameters of the first challenge in `header` (WWW-Authenticate or Proxy-Authenticate).
    static func challenge(_ text: String, header: String) -> [String: String]? {
        let prefix = header.lowercased() + ":"
        guard let line = text.components(separatedBy: "\r\n").first(where: { $0.lowercased().hasPrefix(prefix) }),
              let range = line.range(of: "Digest ") else { return nil }
        var result: [String: String] = [:]
        for part in line[range.upperBound...].split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { continue }
            result[pair[0]] = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        return result
    }
}
