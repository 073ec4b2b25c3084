import Foundation
import XCTest

/// `sipwake registrations delete` and `DELETE /admin/v1/registrations`
/// against a running `sipwake serve`: the deleted binding no longer gets a
/// branch. Phones register from 127.0.0.1 with digest auth; the PBX calls
/// from 127.0.0.2, a trusted peer.
final class RegistrationDeleteTests: IntegrationTestCase {
    private static let token = "daily-admin-token-3b9f0c1e"

    private func startLab() async throws -> (SipwakeProcess, httpPort: Int) {
        let httpPort = try TestPorts.free()
        let server = try await startServer(config: """
            [auth]
            trusted_peers = ["127.0.0.2"]
            [http]
            listen = "127.0.0.1:\(httpPort)"
            admin_token = "\(Self.token)"
            """)
        return (server, httpPort)
    }

    /// The PBX calls `user`: the final status it gets, and whether `phone`
    /// saw an INVITE.
    private func call(_ user: String, _ server: SipwakeProcess, reaching phone: SofiaPhone) async throws -> (Int?, Bool) {
        let pbx = try await startPhone("pbx-\(user)", host: "127.0.0.2")
        let outgoing = await pbx.invite("sip:\(user)@localhost", via: server.proxy("udp"),
                                        from: "\"Bob Caller\" <sip:1002@pbx.example.com>")
        let final = await pbx.waitForResponse(outgoing, atLeast: 200, timeout: .seconds(5))
        let invited = await phone.invitesReceived() > 0
        return (final?.status, invited)
    }

    /// A deletion feed that cannot be read (its table dropped by hand) is
    /// retried every 200 ms, but warned about once a minute, not five times a second.
    func testAnUnreadableDeletionFeedIsOneWarningAMinute() async throws {
        let (server, _) = try await startLab()
        let database = server.directory.appendingPathComponent("sipwake.sqlite").path
        _ = try SipwakeProcess.run("/usr/bin/sqlite3", [database, "DROP TABLE binding_deletions"])
        try await Task.sleep(for: .milliseconds(1500))
        let warnings = server.log.split(separator: "\n").filter { $0.contains("binding deletion feed not read") }
        XCTAssertEqual(warnings.count, 1, server.log)
        XCTAssertTrue(warnings.first?.contains("bindings.feed_failures=1") == true, "\(warnings)")
    }

    private func deleteOverHTTP(_ port: Int, _ query: String) throws -> (status: Int, body: String) {
        let result = try SipwakeProcess.run("/usr/bin/curl", [
            "-s", "-o", "-", "-w", "\n%{http_code}", "-X", "DELETE",
            "-H", "Authorization: Bearer \(Self.token)",
            "http://127.0.0.1:\(port)/admin/v1/registrations?\(query)"])
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    func testABindingDeletedWithTheCLIGetsNoBranchFromTheRunningServer() async throws {
        let (server, _) = try await startLab()
        let alice = try await startPhone("alice")
        let kept = try await startPhone("alice-desk")
        let status = await alice.register(registrar: server.proxy("udp"), user: "alice", password: "alice-secret")
        XCTAssertEqual(status, 200)
        let deskStatus = await kept.register(registrar: server.proxy("udp"), user: "alice", password: "alice-secret")
        XCTAssertEqual(deskStatus, 200)
        let aliceContact = await alice.contactURI
        let deskContact = await kept.contactURI

        try server.assertCLIFails(["registrations", "delete", "alice", "sip:alice@127.0.0.1:1"],
                                  saying: "no binding of alice with contact sip:alice@127.0.0.1:1")
        try server.assertCLIFails(["registrations", "delete", "alice", aliceContact, "--user", "alice"],
                                  saying: "not both")
        try server.assertCLIFails(["registrations", "delete", "alice"], saying: "give the binding's Contact URI")
        try server.assertCLIFails(["registrations", "delete"], saying: "give an AOR and a Contact URI, or --user USER")
        XCTAssertEqual(try server.registrations(user: "alice").count, 2, "the refused commands deleted nothing")

        let deleted = try server.cli(["registrations", "delete", "Alice", aliceContact])
        XCTAssertEqual(deleted.status, 0, deleted.stderr)
        XCTAssertTrue(deleted.stdout.contains("deleted binding \(aliceContact) of alice"), deleted.stdout)
        XCTAssertEqual(try server.registrations(user: "alice").compactMap { $0["contact"] as? String }, [deskContact])
        // The server reads the deletion feed every 200 ms.
        try await Task.sleep(for: .milliseconds(700))

        let (_, invited) = try await call("alice", server, reaching: alice)
        XCTAssertFalse(invited, "the deleted contact got a branch")
        let deskInvited = await kept.waitForInvite(timeout: .seconds(3))
        XCTAssertNotNil(deskInvited, "the binding left in place still rings")
        if let deskInvited { await kept.respond(deskInvited, status: 486) }

        let all = try server.cli(["registrations", "delete", "--user", "alice"])
        XCTAssertEqual(all.status, 0, all.stderr)
        XCTAssertTrue(all.stdout.contains("deleted 1 binding of user alice"), all.stdout)
        try await Task.sleep(for: .milliseconds(700))
        let (second, deskAgain) = try await call("alice", server, reaching: alice)
        XCTAssertEqual(second, 480, "no contact left: the server answers as for a user with no device")
        XCTAssertFalse(deskAgain)
        let deskInvites = await kept.invitesReceived()
        XCTAssertEqual(deskInvites, 1, "the desk phone's binding is gone too")
        XCTAssertTrue(server.log.contains("binding deleted by the operator"), server.log)
    }

    func testABindingDeletedOverTheAdminAPIGetsNoBranchFromTheRunningServer() async throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"), "curl is not installed")
        let (server, httpPort) = try await startLab()
        let bob = try await startPhone("bob")
        let status = await bob.register(registrar: server.proxy("udp"), user: "bob", password: "bob-secret")
        XCTAssertEqual(status, 200)

        let missing = try deleteOverHTTP(httpPort, "user=bob&contact=sip%3Abob%40127.0.0.1%3A1")
        XCTAssertEqual(missing.status, 404, missing.body)
        let bobContact = await bob.contactURI
        let contact = bobContact.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let deleted = try deleteOverHTTP(httpPort, "user=bob&contact=\(contact)")
        XCTAssertEqual(deleted.status, 204, deleted.body)
        XCTAssertEqual(try server.registrations(user: "bob").count, 0)
        try await Task.sleep(for: .milliseconds(700))

        let (final, invited) = try await call("bob", server, reaching: bob)
        XCTAssertEqual(final, 480, "no contact left: the server answers as for a user with no device")
        XCTAssertFalse(invited, "the deleted contact got a branch")
    }
}
