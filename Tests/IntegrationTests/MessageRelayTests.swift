import Foundation
import XCTest

/// MESSAGE (RFC 3428) is relayed to a local user's registered phones, under
/// the same rules as an INVITE: the PBX (a trusted peer) as it is, a phone
/// once authenticated, nobody else.
final class MessageRelayTests: IntegrationTestCase {
    private func startLab() async throws -> SipwakeProcess {
        try await startServer(config: "[auth]\ntrusted_peers = [\"127.0.0.2\"]", authAlgorithms: ["MD5"])
    }

    private func registeredPhone(_ server: SipwakeProcess) async throws -> SofiaPhone {
        let phone = try await startPhone("alice-phone")
        let status = await phone.register(registrar: server.proxy("udp"), user: "alice", password: "alice-secret")
        XCTAssertEqual(status, 200)
        return phone
    }

    private func message(from socket: RawSIPSocket, to user: String, body: String = "Are you there?",
                         authorization: String? = nil) -> String {
        let transport = socket.isStream ? "TCP" : "UDP"
        return "MESSAGE sip:\(user)@localhost SIP/2.0\r\n" +
            "Via: SIP/2.0/\(transport) \(socket.localAddress):\(socket.localPort);branch=z9hG4bK\(UUID().uuidString.prefix(12));rport\r\n" +
            "From: <sip:1002@pbx.example.com>;tag=m1\r\nTo: <sip:\(user)@localhost>\r\n" +
            "Call-ID: \(UUID().uuidString)\r\nCSeq: 1 MESSAGE\r\nMax-Forwards: 70\r\n" +
            (authorization.map { "Proxy-Authorization: \($0)\r\n" } ?? "") +
            "Content-Type: text/plain\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body
    }

    private func finalStatus(_ socket: RawSIPSocket, timeout: Double = 3) -> Int? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            guard let answer = socket.receive(timeout: 0.5), let status = RawDigestClient.status(answer) else { continue }
            if status >= 200 { return status }
        }
        return nil
    }

    func testThePBXsMessageReachesTheRegisteredPhoneAndItsAnswerComesBack() async throws {
        let server = try await startLab()
        let phone = try await registeredPhone(server)
        let pbx = try RawSIPSocket(udpTo: server.port, from: "127.0.0.2")
        pbx.send(message(from: pbx, to: "alice", body: "Meeting at 3"))
        let received = await phone.waitForMessage(timeout: .seconds(3))
        XCTAssertEqual(received?.body, "Meeting at 3")
        XCTAssertEqual(received?.contentType, "text/plain")
        XCTAssertEqual(finalStatus(pbx), 200, "the phone's 200 relayed upstream")
    }

    func testAMessageToAUserWithNothingRegisteredGets480() async throws {
        let server = try await startLab()
        let pbx = try RawSIPSocket(udpTo: server.port, from: "127.0.0.2")
        pbx.send(message(from: pbx, to: "bob"))
        XCTAssertEqual(finalStatus(pbx), 480)
        pbx.send(message(from: pbx, to: "nobody"))
        XCTAssertEqual(finalStatus(pbx), 404)
    }

    func testAStrangersMessageIsChallengedAndAPhonesGoesThroughOnceAuthenticated() async throws {
        let server = try await startLab()
        let phone = try await registeredPhone(server)
        let stranger = try RawSIPSocket(udpTo: server.port, from: "127.0.0.11")
        let bob = RawDigestClient(socket: stranger, user: "bob", password: "bob-secret")
        func fromBob(_ authorization: String?) -> String {
            message(from: stranger, to: "alice", body: "hi from bob", authorization: authorization)
                .replacingOccurrences(of: "<sip:1002@pbx.example.com>", with: "<sip:bob@localhost>")
        }
        stranger.send(fromBob(nil))
        let challengeText = try XCTUnwrap(stranger.receive())
        XCTAssertEqual(RawDigestClient.status(challengeText), 407)
        let early = await phone.waitForMessage(timeout: .milliseconds(300))
        XCTAssertNil(early, "nothing relayed before authentication")
        let challenge = try XCTUnwrap(RawDigestClient.challenge(challengeText))
        stranger.send(fromBob(bob.authorization(challenge, method: "MESSAGE", uri: "sip:alice@localhost")))
        let relayed = await phone.waitForMessage(timeout: .seconds(3))
        XCTAssertEqual(relayed?.body, "hi from bob")
        XCTAssertEqual(finalStatus(stranger), 200)
    }

    func testMessageIsNeverRelayedToAnotherDomainForAStranger() async throws {
        let server = try await startLab()
        let stranger = try RawSIPSocket(udpTo: server.port, from: "127.0.0.11")
        stranger.send(message(from: stranger, to: "victim").replacingOccurrences(of: "sip:victim@localhost SIP", with: "sip:victim@example.org SIP"))
        XCTAssertEqual(finalStatus(stranger), 403)
    }
}
