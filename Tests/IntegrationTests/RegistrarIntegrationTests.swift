import Foundation
import XCTest

/// The registrar over real sockets: a sipwake process on loopback and a
/// Sofia-SIP user agent in the test.
final class RegistrarIntegrationTests: IntegrationTestCase {
    func testRegisterThroughDigestChallengeOverUDPAndTCP() async throws {
        let server = try await startServer()
        for (transport, algorithm) in [("udp", "SHA-256"), ("tcp", "MD5")] {
            let ua = try await makeUA(server, transport: transport)
            let contact = "<sip:alice@10.1.2.3:5062;transport=\(transport)>"
            let first = await ua.send(method: "REGISTER", uri: "sip:localhost", from: "<sip:alice@localhost>;tag=a",
                                      to: "<sip:alice@localhost>", callID: UUID().uuidString, cseq: 1,
                                      contacts: [contact], expires: 600)
            XCTAssertEqual(first.status, 401)
            XCTAssertEqual(first.challenges.map { $0["algorithm"] ?? "" }, ["SHA-256", "MD5"],
                           "SHA-256 is offered before MD5 (RFC 8760)")
            XCTAssertEqual(first.challenges.first?["realm"], "localhost")
            let ok = await ua.register(user: "alice", password: "alice-secret", contacts: [contact], expires: 600,
                                       algorithm: algorithm)
            XCTAssertEqual(ok.status, 200, "\(transport) \(algorithm)")
            XCTAssertTrue(ok.contacts.contains { $0.uri?.host == "10.1.2.3" })
            XCTAssertNotNil(ok.header("Date"))
        }
        let rows = try server.registrations(user: "alice")
        XCTAssertEqual(Set(rows.compactMap { $0["transport"] as? String }), ["udp", "tcp"])
    }

    /// alice's REGISTER with these credentials and Contacts is refused with
    /// `status`, and nothing is stored.
    private func assertRegisterRefused(_ status: Int, password: String, contacts: [String], authUser: String? = nil,
                                       file: StaticString = #filePath, line: UInt = #line) async throws {
        let (server, ua) = try await startServerAndUA()
        let response = await ua.register(user: "alice", password: password, contacts: contacts, authUser: authUser)
        XCTAssertEqual(response.status, status, file: file, line: line)
        XCTAssertEqual(try server.registrations().count, 0, "nothing is stored", file: file, line: line)
    }

    func testWrongPasswordIsChallengedAgainAndStoresNothing() async throws {
        try await assertRegisterRefused(401, password: "wrong", contacts: ["<sip:alice@10.0.0.1>"])
    }

    func testAnotherUsersCredentialsAreForbidden() async throws {
        // bob's valid credentials on alice's AOR.
        try await assertRegisterRefused(403, password: "bob-secret", contacts: ["<sip:mallory@10.0.0.66>"], authUser: "bob")
    }

    func testUnknownUserIsChallengedLikeAWrongPassword() async throws {
        let (server, ua) = try await startServerAndUA()
        let response = await ua.register(user: "carol", password: "x", contacts: ["<sip:carol@10.0.0.1>"])
        XCTAssertEqual(response.status, 401)
    }

    func testUserAddedWhileRunningCanRegisterAtOnce() async throws {
        let server = try await startServer()
        try server.addUser("dave", password: "dave-secret")
        let ua = try await makeUA(server)
        let response = await ua.register(user: "dave", password: "dave-secret", contacts: ["<sip:dave@10.0.0.4>"])
        XCTAssertEqual(response.status, 200)
    }

    func testAUserAddedAfterAFailedAttemptCanRegisterOnceTheServerSeesTheChange() async throws {
        let (server, ua) = try await startServerAndUA()
        let before = await ua.register(user: "erin", password: "erin-secret", contacts: ["<sip:erin@10.0.0.5>"])
        XCTAssertEqual(before.status, 401)
        try server.addUser("erin", password: "erin-secret")
        try await Task.sleep(for: .milliseconds(1500))
        let after = await ua.register(user: "erin", password: "erin-secret", contacts: ["<sip:erin@10.0.0.5>"])
        XCTAssertEqual(after.status, 200)
    }

    func testStaleNonceIsChallengedWithStaleTrue() async throws {
        let (server, ua) = try await startServerAndUA(config: "[auth]\nnonce_lifetime = 10")
        let first = await ua.send(method: "REGISTER", uri: "sip:localhost", from: "<sip:alice@localhost>;tag=s",
                                  to: "<sip:alice@localhost>", callID: "stale-1", cseq: 1, contacts: ["<sip:alice@10.0.0.1>"])
        let challenge = try XCTUnwrap(first.challenges.first)
        try await Task.sleep(for: .seconds(11))
        let auth = DigestClient.authorization(challenge: challenge, method: "REGISTER", uri: "sip:localhost",
                                              user: "alice", password: "alice-secret")
        let second = await ua.send(method: "REGISTER", uri: "sip:localhost", from: "<sip:alice@localhost>;tag=s",
                                   to: "<sip:alice@localhost>", callID: "stale-1", cseq: 2,
                                   contacts: ["<sip:alice@10.0.0.1>"], authorization: auth)
        XCTAssertEqual(second.status, 401)
        XCTAssertEqual(second.challenges.first?["stale"]?.lowercased(), "true")
    }

    func testRefreshKeepsOneBindingAndRemovalDeletesIt() async throws {
        let (server, ua) = try await startServerAndUA()
        let callID = UUID().uuidString
        var r = await ua.register(user: "alice", password: "alice-secret", contacts: ["<sip:alice@10.0.0.1:5060>"],
                                  expires: 600, callID: callID, cseq: 1)
        XCTAssertEqual(r.status, 200)
        r = await ua.register(user: "alice", password: "alice-secret", contacts: ["<sip:alice@10.0.0.1:5060>"],
                              expires: 900, callID: callID, cseq: 10)
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.contacts.count, 1)
        XCTAssertEqual(r.contacts.first?.expires.flatMap(Int.init).map { $0 > 600 }, true, "refreshed expiry")
        var rows = try server.registrations(user: "alice")
        XCTAssertEqual(rows.count, 1)
        XCTAssertEqual(rows.first?["cseq"] as? Int, 11)

        r = await ua.register(user: "alice", password: "alice-secret", contacts: ["<sip:alice@10.0.0.1:5060>"],
                              expires: 0, callID: callID, cseq: 20)
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.contacts.count, 0)
        rows = try server.registrations(user: "alice")
        XCTAssertEqual(rows.count, 0)
    }

    func testOutOfOrderCSeqIsRejectedWith500() async throws {
        let (server, ua) = try await startServerAndUA()
        let callID = UUID().uuidString
        let r = await ua.register(user: "alice", password: "alice-secret", contacts: ["<sip:alice@10.0.0.1>"],
                                  callID: callID, cseq: 50)
        XCTAssertEqual(r.status, 200)
        let old = await ua.register(user: "alice", password: "alice-secret", contacts: ["<sip:alice@10.0.0.1>"],
                                    expires: 0, callID: callID, cseq: 5)
        XCTAssertEqual(old.status, 500)
        XCTAssertEqual(try server.registrations(user: "alice").count, 1)
    }

    func testWildcardWithExpiresZeroRemovesEveryBinding() async throws {
        let (server, ua) = try await startServerAndUA()
        for i in 1...3 {
            let r = await ua.register(user: "alice", password: "alice-secret", contacts: ["<sip:alice@10.0.0.\(i)>"])
            XCTAssertEqual(r.status, 200)
        }
        XCTAssertEqual(try server.registrations(user: "alice").count, 3)
        let bad = await ua.register(user: "alice", password: "alice-secret", contacts: ["*"], expires: 30)
        XCTAssertEqual(bad.status, 400, "* needs Expires: 0")
        let r = await ua.register(user: "alice", password: "alice-secret", contacts: ["*"], expires: 0)
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(try server.registrations(user: "alice").count, 0)
    }

    func testTooBriefIntervalGets423WithMinExpiresAndLongOnesAreClamped() async throws {
        let (server, ua) = try await startServerAndUA(config: "[registrar]\nmin_expires = 120\nmax_expires = 1800\ndefault_expires = 600")
        let brief = await ua.register(user: "alice", password: "alice-secret", contacts: ["<sip:alice@10.0.0.1>"], expires: 30)
        XCTAssertEqual(brief.status, 423)
        XCTAssertEqual(brief.minExpires, 120)
        let long = await ua.register(user: "alice", password: "alice-secret", contacts: ["<sip:alice@10.0.0.1>"], expires: 99999)
        XCTAssertEqual(long.status, 200)
        XCTAssertEqual(long.contacts.first?.expires, "1800")
        let byDefault = await ua.register(user: "bob", password: "bob-secret", contacts: ["<sip:bob@10.0.0.2>"])
        XCTAssertEqual(byDefault.contacts.first?.expires, "600")
    }

    func testOKListsEveryBindingByQValueWithPathAndInstance() async throws {
        // The test's user agent stands for the edge proxy that added the Path.
        let (server, ua) = try await startServerAndUA(config: "[sip]\nedge_proxies = [\"127.0.0.1\"]")
        _ = await ua.register(user: "alice", password: "alice-secret", contacts: ["<sip:alice@10.0.0.1>;q=0.2"])
        let r = await ua.register(
            user: "alice", password: "alice-secret",
            contacts: ["<sip:alice@10.0.0.2>;q=0.9;+sip.instance=\"<urn:uuid:00000000-0000-0000-0000-000000000001>\";reg-id=1"],
            extraHeaders: [("Path", "<sip:edge.example.net;lr>"), ("Supported", "path, outbound")])
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.contacts.compactMap { $0.uri?.host }, ["10.0.0.2", "10.0.0.1"], "highest q first")
        XCTAssertEqual(r.contacts.first?.q, "0.9")
        XCTAssertEqual(r.contacts.first?.instanceID, "<urn:uuid:00000000-0000-0000-0000-000000000001>")
        XCTAssertEqual(r.header("Path"), "<sip:edge.example.net;lr>", "Path echoed (RFC 3327)")
        XCTAssertEqual(r.header("Require"), "outbound", "RFC 5626 §6")
        let rows = try server.registrations(user: "alice")
        let withPath = rows.first { ($0["contact"] as? String)?.contains("10.0.0.2") == true }
        XCTAssertEqual(withPath?["path"] as? [String], ["<sip:edge.example.net;lr>"])
    }

    /// An authenticated phone must not make sipwake send its calls to a host
    /// of its choosing: Path from a source that is not an edge proxy gets
    /// 403 and binds nothing (RFC 3327 §5.3 leaves the policy to the registrar).
    func testPathFromAPhoneIsRefusedAndBindsNothing() async throws {
        let (server, ua) = try await startServerAndUA()
        let r = await ua.register(user: "alice", password: "alice-secret", contacts: ["<sip:alice@10.0.0.2>"],
                                  extraHeaders: [("Path", "<sip:attacker.example.net;lr>"), ("Supported", "path")])
        XCTAssertEqual(r.status, 403)
        XCTAssertEqual(try server.registrations(user: "alice").count, 0)
        let plain = await ua.register(user: "alice", password: "alice-secret", contacts: ["<sip:alice@10.0.0.2>"])
        XCTAssertEqual(plain.status, 200, "the same phone without Path registers")
    }

    /// From an edge proxy, Path is honoured only when the phone supports it (RFC 3327 §5.3).
    func testPathFromAnEdgeWithoutSupportedPathGets421() async throws {
        let (server, ua) = try await startServerAndUA(config: "[sip]\nedge_proxies = [\"127.0.0.0/8\"]")
        let r = await ua.register(user: "alice", password: "alice-secret", contacts: ["<sip:alice@10.0.0.2>"],
                                  extraHeaders: [("Path", "<sip:edge.example.net;lr>")])
        XCTAssertEqual(r.status, 421)
        XCTAssertEqual(r.header("Require"), "path")
        XCTAssertEqual(try server.registrations(user: "alice").count, 0)
    }

    func testADeviceReRegisteringFromANewAddressReplacesItsBinding() async throws {
        let (server, ua) = try await startServerAndUA()
        let instance = "+sip.instance=\"<urn:uuid:11111111-2222-3333-4444-555555555555>\""
        _ = await ua.register(user: "alice", password: "alice-secret", contacts: ["<sip:alice@192.168.1.10:5060>;\(instance)"],
                              callID: "wifi")
        let r = await ua.register(user: "alice", password: "alice-secret", contacts: ["<sip:alice@100.64.7.7:40000>;\(instance)"],
                                  callID: "lte")
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.contacts.compactMap { $0.uri?.host }, ["100.64.7.7"])
        XCTAssertEqual(try server.registrations(user: "alice").count, 1)
    }

    func testBindingsPerAORAreCappedByEvictingTheOldest() async throws {
        let (server, ua) = try await startServerAndUA(config: "[registrar]\nmax_bindings_per_aor = 2")
        for i in 1...3 {
            _ = await ua.register(user: "alice", password: "alice-secret", contacts: ["<sip:alice@10.0.0.\(i)>"])
        }
        let hosts = Set(try server.registrations(user: "alice").compactMap { $0["contact"] as? String })
        XCTAssertEqual(hosts, ["sip:alice@10.0.0.2", "sip:alice@10.0.0.3"])
    }

    func testExpiredBindingsDisappearOnTime() async throws {
        let (server, ua) = try await startServerAndUA(config: "[registrar]\nmin_expires = 1")
        let r = await ua.register(user: "alice", password: "alice-secret", contacts: ["<sip:alice@10.0.0.1>"], expires: 2)
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(try server.registrations(user: "alice").count, 1)
        try await Task.sleep(for: .milliseconds(3500))
        // Gone from the server's table (a query REGISTER lists nothing) and from disk.
        let query = await ua.register(user: "alice", password: "alice-secret", contacts: [])
        XCTAssertEqual(query.status, 200)
        XCTAssertEqual(query.contacts.count, 0)
        let db = try SipwakeProcess.run("/usr/bin/sqlite3", [server.directory.appendingPathComponent("sipwake.sqlite").path,
                                                             "SELECT count(*) FROM bindings"])
        XCTAssertEqual(db.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "0")
    }

    func testBindingsSurviveARestartWithTheirRemainingExpiry() async throws {
        let (server, ua) = try await startServerAndUA()
        let r = await ua.register(user: "alice", password: "alice-secret", contacts: ["<sip:alice@10.0.0.1>"], expires: 600)
        XCTAssertEqual(r.status, 200)
        let status = await server.stop()
        XCTAssertEqual(status, 0, "SIGTERM is a clean exit")
        XCTAssertTrue(server.log.contains("sipwake stopped"))
        XCTAssertTrue(server.log.contains("[SIPWake] sip stopped bindings.count=1"), server.log)
        try await server.start()
        XCTAssertTrue(server.log.contains("bindings.count=1 sip.listen="))
        let rows = try server.registrations(user: "alice")
        XCTAssertEqual(rows.count, 1)
        let remaining = try XCTUnwrap(rows.first?["expires_in"] as? Int)
        XCTAssertTrue((590...600).contains(remaining), "\(remaining)")
        // The restarted server knows the binding too: a query REGISTER lists it.
        let ua2 = try await makeUA(server)
        let query = await ua2.register(user: "alice", password: "alice-secret", contacts: [])
        XCTAssertEqual(query.contacts.compactMap { $0.uri?.host }, ["10.0.0.1"])
    }

    func testTheSourceAddressBehindNATIsStoredNotTheContact() async throws {
        let server = try await startServer()
        let ua = try await makeUA(server, transport: "tcp")
        let r = await ua.register(user: "alice", password: "alice-secret",
                                  contacts: ["<sip:alice@192.168.0.50:5060;transport=tcp>"])
        XCTAssertEqual(r.status, 200)
        let row = try XCTUnwrap(try server.registrations(user: "alice").first)
        XCTAssertEqual(row["transport"] as? String, "tcp")
        let source = try XCTUnwrap(row["source"] as? String)
        XCTAssertTrue(source.hasPrefix("127.0.0.1:"), source)
        XCTAssertNotEqual(source, "127.0.0.1:5060")
        XCTAssertEqual(row["contact"] as? String, "sip:alice@192.168.0.50:5060;transport=tcp")
    }

    func testTrustedPeersAreNotChallenged() async throws {
        let (server, ua) = try await startServerAndUA(config: "[auth]\ntrusted_peers = [\"127.0.0.0/8\"]")
        let r = await ua.register(user: "alice", password: nil, contacts: ["<sip:alice@10.0.0.1>"])
        XCTAssertEqual(r.status, 200)
    }

    func testAuthCanBeSwitchedOffForALabWithAWarning() async throws {
        let server = try await startServer(config: "[auth]\nenabled = false")
        XCTAssertTrue(server.log.contains("digest authentication is disabled"))
        let ua = try await makeUA(server)
        let r = await ua.register(user: "anyone", password: nil, contacts: ["<sip:anyone@10.0.0.1>"])
        XCTAssertEqual(r.status, 200)
    }

    func testRegisterForAForeignDomainIsRefused() async throws {
        let (server, ua) = try await startServerAndUA()
        let foreignRURI = await ua.send(method: "REGISTER", uri: "sip:example.org", from: "<sip:alice@example.org>;tag=f",
                                        to: "<sip:alice@example.org>", callID: UUID().uuidString, cseq: 1,
                                        contacts: ["<sip:alice@10.0.0.1>"])
        XCTAssertEqual(foreignRURI.status, 403)
        let foreignTo = await ua.send(method: "REGISTER", uri: "sip:localhost", from: "<sip:alice@example.org>;tag=f",
                                      to: "<sip:alice@example.org>", callID: UUID().uuidString, cseq: 1,
                                      contacts: ["<sip:alice@10.0.0.1>"])
        XCTAssertEqual(foreignTo.status, 404)
    }

    func testUnsupportedRequireGets420() async throws {
        let (server, ua) = try await startServerAndUA()
        let r = await ua.register(user: "alice", password: "alice-secret", contacts: ["<sip:alice@10.0.0.1>"],
                                  extraHeaders: [("Require", "foo-bar")])
        XCTAssertEqual(r.status, 420)
        XCTAssertEqual(r.header("Unsupported"), "foo-bar")
    }

    func testBadQValueGets400() async throws {
        try await assertRegisterRefused(400, password: "alice-secret", contacts: ["<sip:alice@10.0.0.1>;q=1.5"])
    }

    func testOptionsIsAnswered() async throws {
        let (server, ua) = try await startServerAndUA()
        let r = await ua.send(method: "OPTIONS", uri: server.uri, from: "<sip:probe@localhost>;tag=o",
                              to: "<\(server.uri)>", callID: UUID().uuidString, cseq: 1)
        XCTAssertEqual(r.status, 200)
        XCTAssertTrue(r.header("Allow")?.contains("REGISTER") == true)
    }

    func testOtherDomainsAreNeverRelayed() async throws {
        let (server, ua) = try await startServerAndUA()
        let r = await ua.send(method: "MESSAGE", uri: "sip:victim@example.org", from: "<sip:spam@localhost>;tag=m",
                              to: "<sip:victim@example.org>", callID: UUID().uuidString, cseq: 1)
        XCTAssertEqual(r.status, 403)
    }
}
