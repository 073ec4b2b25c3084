import Foundation
import XCTest

/// The attacks from the hardening work, played against a real server over
/// loopback: a captured REGISTER or INVITE sent again, password guessing, a
/// phone's Path, unauthenticated floods and their amplification.
final class SecurityTests: IntegrationTestCase {
    /// Alice registers from a raw socket; returns the authenticated REGISTER's
    /// Authorization, as an attacker on the path would capture it.
    private func registerAlice(_ server: SipwakeProcess, from socket: RawSIPSocket,
                               contact: String = "<sip:alice@10.0.0.1:5060>") throws -> String {
        let alice = RawDigestClient(socket: socket, user: "alice", password: "alice-secret")
        socket.send(alice.register(contact: contact))
        let first = try XCTUnwrap(socket.receive())
        XCTAssertEqual(RawDigestClient.status(first), 401)
        let challenge = try XCTUnwrap(RawDigestClient.challenge(first))
        let authorization = alice.authorization(challenge, method: "REGISTER", uri: "sip:localhost")
        socket.send(alice.register(contact: contact, authorization: authorization))
        XCTAssertEqual(RawDigestClient.status(socket.receive()), 200)
        return authorization
    }

    /// The exact replay: the same Authorization (nonce, nc, cnonce, response)
    /// with a new Call-ID and CSeq and the attacker's Contact.
    /// A server with MD5 digest, and alice's first REGISTER to it challenged.
    private func aliceChallengedOnRegister() async throws
        -> (SipwakeProcess, RawSIPSocket, RawDigestClient, [String: String]) {
        let server = try await startServer(authAlgorithms: ["MD5"])
        let socket = try RawSIPSocket(udpTo: server.port)
        let alice = RawDigestClient(socket: socket, user: "alice", password: "alice-secret")
        socket.send(alice.register(contact: "<sip:alice@10.0.0.1>"))
        let challenge = try XCTUnwrap(RawDigestClient.challenge(XCTUnwrap(socket.receive())))
        return (server, socket, alice, challenge)
    }

    func testAReplayedRegisterGets401WithStaleAndBindsNothing() async throws {
        let server = try await startServer(authAlgorithms: ["MD5"])
        let socket = try RawSIPSocket(udpTo: server.port)
        let captured = try registerAlice(server, from: socket)

        let attacker = try RawSIPSocket(udpTo: server.port, from: "127.0.0.5")
        let forged = RawDigestClient(socket: attacker, user: "alice", password: "")
        for cseq in 1...3 {
            attacker.send(forged.register(contact: "<sip:alice@203.0.113.66:5060>", cseq: cseq, authorization: captured))
            let answer = try XCTUnwrap(attacker.receive())
            XCTAssertEqual(RawDigestClient.status(answer), 401, answer)
            XCTAssertTrue(answer.contains("stale=true"), "a replay is answered as a stale nonce: \(answer)")
        }
        attacker.send(forged.register(contact: "*", expires: 0, authorization: captured))
        XCTAssertEqual(RawDigestClient.status(attacker.receive()), 401, "Contact: * with a replayed Authorization")
        let contacts = try server.registrations(user: "alice").compactMap { $0["contact"] as? String }
        XCTAssertEqual(contacts, ["sip:alice@10.0.0.1:5060"], "only alice's own binding, untouched")
        try await assertLogged(server, "digest replay refused")
    }

    /// A phone's own next request with the same nonce and a higher nc still works.
    func testTheSameNonceWithAHigherCountIsAccepted() async throws {
        let (_, socket, alice, challenge) = try await aliceChallengedOnRegister()
        for nc in 1...3 {
            let authorization = alice.authorization(challenge, method: "REGISTER", uri: "sip:localhost", nc: nc)
            socket.send(alice.register(contact: "<sip:alice@10.0.0.1>", cseq: nc, authorization: authorization))
            XCTAssertEqual(RawDigestClient.status(socket.receive()), 200, "nc \(nc)")
        }
    }

    /// A phone's INVITE sent again with its captured Proxy-Authorization.
    func testAReplayedInviteIsChallengedAgain() async throws {
        let server = try await startServer(authAlgorithms: ["MD5"])
        let socket = try RawSIPSocket(udpTo: server.port)
        let alice = RawDigestClient(socket: socket, user: "alice", password: "alice-secret")
        func invite(_ authorization: String?, callID: String) -> String {
            "INVITE sip:bob@localhost SIP/2.0\r\n" +
                "Via: SIP/2.0/UDP 127.0.0.1:\(socket.localPort);branch=z9hG4bK\(UUID().uuidString.prefix(12));rport\r\n" +
                "From: <sip:alice@localhost>;tag=a1\r\nTo: <sip:bob@localhost>\r\nCall-ID: \(callID)\r\nCSeq: 1 INVITE\r\n" +
                "Max-Forwards: 70\r\nContact: <sip:alice@127.0.0.1:\(socket.localPort)>\r\n" +
                (authorization.map { "Proxy-Authorization: \($0)\r\n" } ?? "") + "Content-Length: 0\r\n\r\n"
        }
        socket.send(invite(nil, callID: "call-1"))
        let challenge = try XCTUnwrap(RawDigestClient.challenge(XCTUnwrap(socket.receive())))
        let authorization = alice.authorization(challenge, method: "INVITE", uri: "sip:bob@localhost")
        socket.send(invite(authorization, callID: "call-2"))
        var statuses: [Int] = []
        while let answer = socket.receive(timeout: 1), let status = RawDigestClient.status(answer) {
            statuses.append(status)
            if status >= 200 { break }
        }
        XCTAssertEqual(statuses.last, 480, "authenticated: bob has no device, so 480 at once (\(statuses))")
        socket.send(invite(authorization, callID: "call-3"))
        let replay = try XCTUnwrap(socket.receive())
        XCTAssertEqual(RawDigestClient.status(replay), 407, replay)
        XCTAssertTrue(replay.contains("stale=true"), replay)
    }

    /// RFC 2617 §3.2.2.5: the digest-uri must name the Request-URI.
    func testADigestURIThatIsNotTheRequestURIIsRefused() async throws {
        let (server, socket, alice, challenge) = try await aliceChallengedOnRegister()
        let elsewhere = alice.authorization(challenge, method: "REGISTER", uri: "sip:localhost", digestURI: "sip:other.example.com")
        socket.send(alice.register(contact: "<sip:alice@10.0.0.1>", authorization: elsewhere))
        XCTAssertEqual(RawDigestClient.status(socket.receive()), 400)
        XCTAssertEqual(try server.registrations(user: "alice").count, 0)
        // The same URI spelled with a port and parameters still names it.
        let sameURI = alice.authorization(challenge, method: "REGISTER", uri: "sip:localhost", nc: 2,
                                          digestURI: "sip:localhost;transport=udp")
        socket.send(alice.register(contact: "<sip:alice@10.0.0.1>", authorization: sameURI, uri: "sip:localhost;transport=udp"))
        XCTAssertEqual(RawDigestClient.status(socket.receive()), 200)
    }

    /// A digest `uri` mismatch counts as a failed attempt: a source cannot
    /// draw a warning line per request for ever.
    func testRepeatedDigestURIMismatchesEndInABlock() async throws {
        let (_, socket, alice, challenge) = try await aliceChallengedOnRegister()
        var statuses: [Int?] = []
        for nc in 1...6 {
            let elsewhere = alice.authorization(challenge, method: "REGISTER", uri: "sip:localhost", nc: nc,
                                                digestURI: "sip:other.example.com")
            socket.send(alice.register(contact: "<sip:alice@10.0.0.1>", cseq: nc, authorization: elsewhere))
            statuses.append(RawDigestClient.status(socket.receive()))
        }
        XCTAssertEqual(statuses, [400, 400, 400, 400, 400, 403])
    }

    /// Guessing alice's password from one address: 401 up to the limit, then
    /// 403 without the credentials being checked; alice herself, from another
    /// address, registers all the while, and bob from the guesser's address too.
    func testPasswordGuessingIsBlockedPerUserAndAddress() async throws {
        let server = try await startServer(
            config: "[auth]\nmax_failures_per_user = 3\nmax_failures_per_source = 0", authAlgorithms: ["MD5"])
        let guesser = try RawSIPSocket(udpTo: server.port, from: "127.0.0.7")
        let mallory = RawDigestClient(socket: guesser, user: "alice", password: "not-it")
        var statuses: [Int] = []
        for attempt in 1...6 {
            statuses.append(mallory.registerAnsweringChallenge(contact: "<sip:alice@203.0.113.66>", password: "guess\(attempt)") ?? 0)
        }
        XCTAssertEqual(statuses, [401, 401, 401, 403, 403, 403])
        // Even the right password is refused from there while the block lasts.
        guesser.send(mallory.register(contact: "<sip:alice@203.0.113.66>"))
        let challenge = try XCTUnwrap(RawDigestClient.challenge(XCTUnwrap(guesser.receive())))
        guesser.send(mallory.register(contact: "<sip:alice@203.0.113.66>",
                                      authorization: mallory.authorization(challenge, method: "REGISTER", uri: "sip:localhost",
                                                                           password: "alice-secret")))
        let refused = try XCTUnwrap(guesser.receive())
        XCTAssertEqual(RawDigestClient.status(refused), 403)
        XCTAssertTrue(refused.contains("Retry-After:"), refused)

        _ = try registerAlice(server, from: RawSIPSocket(udpTo: server.port, from: "127.0.0.1"))
        let bob = RawDigestClient(socket: try RawSIPSocket(udpTo: server.port, from: "127.0.0.7"), user: "bob", password: "bob-secret")
        XCTAssertEqual(bob.registerAnsweringChallenge(contact: "<sip:bob@10.0.0.2>"), 200, "another user at the guesser's address")

        let log = try await assertLogged(server, "digest authentication failed")
        XCTAssertTrue(log.contains("client.address=127.0.0.7"), "fail2ban needs the address")
        XCTAssertTrue(log.contains("sip.user=alice") && log.contains("sip.method=REGISTER"))
        try await assertLogged(server, "digest user blocked at source")
        try assertFail2banBans("127.0.0.7", failures: 3, in: server)
    }

    /// Debian's fail2ban-regex, with the filter shipped in etc/fail2ban,
    /// finds each failed login in the server's log, with the guesser's address.
    private func assertFail2banBans(_ address: String, failures: Int, in server: SipwakeProcess) throws {
        let filter = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("etc/fail2ban/sipwake.conf").path
        let logFile = server.directory.appendingPathComponent("fail2ban-input.log").path
        try server.log.write(toFile: logFile, atomically: true, encoding: .utf8)
        let result = try SipwakeProcess.run("/usr/bin/fail2ban-regex", ["--print-all-matched", logFile, filter])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("Failregex: \(failures) total"), result.stdout)
        let matched = result.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("|  20") }
        XCTAssertEqual(matched.count, failures, result.stdout)
        XCTAssertTrue(matched.allSatisfy { $0.contains("client.address=\(address) ") }, result.stdout)
    }

    /// One address trying many users is blocked as a whole, except for the
    /// users that registered from it before (phones behind the same NAT).
    func testAnAddressGuessingManyUsersIsBlockedButItsPhonesGoOn() async throws {
        let server = try await startServer(
            config: "[auth]\nmax_failures_per_source = 4\nmax_failures_per_user = 100", authAlgorithms: ["MD5"])
        let nat = try RawSIPSocket(udpTo: server.port, from: "127.0.0.8")
        _ = try registerAlice(server, from: nat)
        for user in ["u1", "u2", "u3", "u4"] {
            let guesser = RawDigestClient(socket: nat, user: user, password: "x")
            XCTAssertEqual(guesser.registerAnsweringChallenge(contact: "<sip:x@203.0.113.66>"), 401)
        }
        let bob = RawDigestClient(socket: nat, user: "bob", password: "bob-secret")
        XCTAssertEqual(bob.registerAnsweringChallenge(contact: "<sip:bob@10.0.0.2>"), 403, "a new user from the blocked address")
        _ = try registerAlice(server, from: nat)
        try await assertLogged(server, "digest source blocked")
    }

    /// An unauthenticated INVITE gets one 407, sent without a transaction:
    /// nothing is retransmitted (it used to be 11 times over 32 s).
    func testAnUnauthenticatedInviteGetsExactlyOneStatelessChallenge() async throws {
        let server = try await startServer()
        let socket = try RawSIPSocket(udpTo: server.port, from: "127.0.0.9")
        socket.send(socket.request(method: "INVITE", uri: "sip:alice@localhost"))
        var answers: [String] = []
        let deadline = Date().addingTimeInterval(3)
        while Date() < deadline {
            if let answer = socket.receive(timeout: 0.5) { answers.append(answer) }
        }
        XCTAssertEqual(answers.compactMap(RawDigestClient.status), [407])
    }

    /// An in-dialog request with a Route sipwake did not sign, from anyone,
    /// is refused once and statelessly: the 403 is not retransmitted to a
    /// spoofed source for 32 s, and an ACK gets nothing.
    func testAForgedRouteIsRefusedOnceStatelessly() async throws {
        let server = try await startServer()
        let socket = try RawSIPSocket(udpTo: server.port, from: "127.0.0.13")
        let forged = "Route: <sip:127.0.0.1:\(server.port);lr;swk=forged>\r\n"
        socket.send(socket.request(method: "INVITE", uri: "sip:alice@10.0.0.1", extra: forged)
            .replacingOccurrences(of: "To: <sip:probe@localhost>", with: "To: <sip:probe@localhost>;tag=dialog"))
        socket.send(socket.request(method: "ACK", uri: "sip:alice@10.0.0.1", extra: forged)
            .replacingOccurrences(of: "To: <sip:probe@localhost>", with: "To: <sip:probe@localhost>;tag=dialog"))
        var answers: [String] = []
        let deadline = Date().addingTimeInterval(3)
        while Date() < deadline {
            if let answer = socket.receive(timeout: 0.5) { answers.append(answer) }
        }
        XCTAssertEqual(answers.compactMap(RawDigestClient.status), [403], "\(answers)")
    }

    /// Credentials naming a user the server must look up (not in memory)
    /// still get a single stateless answer: the request waits for the lookup
    /// without a transaction, so nothing retransmits the 407.
    func testAnUnknownUsersCredentialsGetExactlyOneAnswer() async throws {
        let server = try await startServer(authAlgorithms: ["MD5"])
        let socket = try RawSIPSocket(udpTo: server.port, from: "127.0.0.12")
        socket.send(socket.request(method: "INVITE", uri: "sip:alice@localhost"))
        let challenge = try XCTUnwrap(RawDigestClient.challenge(XCTUnwrap(socket.receive())))
        let ghost = RawDigestClient(socket: socket, user: "ghost", password: "boo")
        let authorization = ghost.authorization(challenge, method: "INVITE", uri: "sip:alice@localhost")
        socket.send(socket.request(method: "INVITE", uri: "sip:alice@localhost",
                                   extra: "Proxy-Authorization: \(authorization)\r\n")
            .replacingOccurrences(of: "<sip:probe@localhost>;tag", with: "<sip:ghost@localhost>;tag"))
        var answers: [Int] = []
        let deadline = Date().addingTimeInterval(3)
        while Date() < deadline {
            if let answer = socket.receive(timeout: 0.5), let status = RawDigestClient.status(answer) { answers.append(status) }
        }
        XCTAssertEqual(answers, [407])
    }

    /// A flood from one untrusted address: past its allowance requests are
    /// dropped unanswered (no amplification, not even 1:1), while a phone
    /// elsewhere registers as usual.
    func testAFloodFromOneAddressIsDroppedAndOthersAreServed() async throws {
        let server = try await startServer(config: "[sip]\nmax_unauthenticated_per_source = 20", authAlgorithms: ["MD5"])
        let flooder = try RawSIPSocket(udpTo: server.port, from: "127.0.0.10")
        for _ in 0..<300 { flooder.send(flooder.request(method: "INVITE", uri: "sip:alice@localhost")) }
        var answered = 0
        while flooder.receive(timeout: 0.5) != nil { answered += 1 }
        XCTAssertGreaterThan(answered, 0)
        XCTAssertLessThanOrEqual(answered, 60, "20/s with bursts of 40, plus what refilled meanwhile")
        _ = try registerAlice(server, from: RawSIPSocket(udpTo: server.port, from: "127.0.0.1"))
    }

    /// `grep`s the server's log for a line, waiting a little for it.
    @discardableResult
    private func assertLogged(_ server: SipwakeProcess, _ text: String, file: StaticString = #filePath,
                              line: UInt = #line) async throws -> String {
        for _ in 0..<20 {
            let log = server.log
            if let match = log.components(separatedBy: "\n").first(where: { $0.contains(text) }) { return match }
            try await Task.sleep(for: .milliseconds(100))
        }
        XCTFail("no log line with '\(text)'", file: file, line: line)
        return ""
    }
}
