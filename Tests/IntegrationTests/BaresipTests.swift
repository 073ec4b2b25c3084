import Foundation
import XCTest

/// baresip 1.0, Debian's, as a common softphone written by other people. It
/// knows only MD5 and gives up on a 401 that holds any other challenge,
/// whatever the order ("Register: Function not implemented"): sipwake knows
/// it by its User-Agent and sends it the MD5 challenge alone.
final class BaresipTests: IntegrationTestCase {
    private var phones: [BaresipProcess] = []

    override func setUp() async throws {
        try await super.setUp()
        try XCTSkipUnless(BaresipProcess.isInstalled, "baresip is not installed (the test command installs it)")
    }

    override func tearDown() async throws {
        for phone in phones { await phone.stop() }
        phones.removeAll()
        try await super.tearDown()
    }

    private func startBaresip(_ server: SipwakeProcess, password: String) throws -> BaresipProcess {
        let phone = try BaresipProcess(account: "<sip:alice@127.0.0.1:\(server.port)>;auth_pass=\(password);regint=300")
        phones.append(phone)
        try phone.start()
        return phone
    }

    /// The first try: the server on its default `auth.algorithms`
    /// (as the sample config), digest on; baresip registers and the binding
    /// is stored.
    func testBaresipRegistersOnTheFirstTryWithTheDefaultAlgorithms() async throws {
        let server = try await startServer(authAlgorithms: nil)
        let phone = try startBaresip(server, password: "alice-secret")
        let registered = await phone.waitForOutput("200 OK")
        XCTAssertTrue(registered, phone.output)
        XCTAssertFalse(phone.output.contains("Function not implemented"), phone.output)
        let rows = try server.registrations(user: "alice")
        XCTAssertEqual(rows.count, 1, "\(rows)")
        // baresip puts a user part of its own in the Contact: sip:alice-0x…@127.0.0.1:PORT.
        let contact = rows.first?["contact"] as? String ?? ""
        XCTAssertTrue(contact.hasPrefix("sip:alice") && contact.hasSuffix("@127.0.0.1:\(phone.port)"), contact)
        XCTAssertTrue((rows.first?["user_agent"] as? String ?? "").hasPrefix("baresip"), "\(rows)")
    }

    /// An operator who puts SHA-256 first keeps that order for the other
    /// phones; baresip still gets its MD5 challenge.
    func testBaresipRegistersWhenTheOperatorPutsSHA256First() async throws {
        let server = try await startServer(authAlgorithms: ["SHA-256", "MD5"])
        let phone = try startBaresip(server, password: "alice-secret")
        let registered = await phone.waitForOutput("200 OK")
        XCTAssertTrue(registered, phone.output)
        XCTAssertEqual(try server.registrations(user: "alice").count, 1)
    }

    func testBaresipWithAWrongPasswordIsRefused() async throws {
        let server = try await startServer(authAlgorithms: nil)
        let phone = try startBaresip(server, password: "not-the-password")
        let refused = await phone.waitForOutput("403")
        XCTAssertTrue(refused, phone.output)
        XCTAssertEqual(try server.registrations(user: "alice").count, 0)
    }
}
