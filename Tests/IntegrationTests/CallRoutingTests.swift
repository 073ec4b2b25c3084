import Foundation
import XCTest

/// INVITEs that sipwake answers itself, before any fork: the open-relay
/// refusal, the caller's digest challenge, unknown users, Max-Forwards, and a
/// callee with no device at all. A Sofia-SIP user agent sends them over
/// loopback to a real server.
final class CallRoutingTests: IntegrationTestCase {
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

    func testUntrustedCallerIsChallengedWithProxyAuthenticate() async throws {
        let (_, ua) = try await startServerAndUA()
        let response = await invite(ua, to: "sip:alice@localhost", from: "<sip:bob@localhost>;tag=b1")
        XCTAssertEqual(response.status, 407)
        XCTAssertTrue(response.text.contains("Proxy-Authenticate: Digest"), response.text)
    }

    func testAuthenticatedCallerWithAnotherUsersCredentialsIsForbidden() async throws {
        let (_, ua) = try await startServerAndUA()
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

    func testTrustedPeerCallingAnUnknownUserGets404() async throws {
        let (_, ua) = try await startServerAndUA(config: "[auth]\ntrusted_peers = [\"127.0.0.1\"]")
        let response = await invite(ua, to: "sip:nobody@localhost")
        XCTAssertEqual(response.status, 404)
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

    func testMaxForwardsZeroGets483() async throws {
        let (_, ua) = try await startServerAndUA(config: "[auth]\ntrusted_peers = [\"127.0.0.1\"]")
        let response = await invite(ua, to: "sip:alice@localhost", maxForwards: 0)
        XCTAssertEqual(response.status, 483)
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
