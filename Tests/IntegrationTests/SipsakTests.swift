import Foundation
import XCTest

/// sipsak, Debian's SIP swiss army knife, as a second client written by
/// other people: it speaks MD5 digest only and reads the first challenge
/// (with SHA-256 offered first it cannot register).
final class SipsakTests: IntegrationTestCase {
    static let sipsak = "/usr/bin/sipsak"

    override func setUp() async throws {
        try await super.setUp()
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: Self.sipsak),
                          "sipsak is not installed (the test command installs it)")
    }

    /// `sipsak -U`: registers alice (Contact sip:alice@127.0.0.1:5999) with `password`.
    private func register(_ server: SipwakeProcess, password: String) throws -> SipwakeProcess.CLIResult {
        try SipwakeProcess.run(Self.sipsak, [
            "-U", "-s", "sip:alice@localhost", "-r", "\(server.port)", "-H", "127.0.0.1",
            "-u", "alice", "-a", password, "-C", "sip:alice@127.0.0.1:5999", "-x", "300", "-i",
        ])
    }

    private func assertRegistered(_ server: SipwakeProcess, _ result: SipwakeProcess.CLIResult,
                                  file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr, file: file, line: line)
        let rows = try server.registrations(user: "alice")
        XCTAssertEqual(rows.first?["contact"] as? String, "sip:alice@127.0.0.1:5999", file: file, line: line)
        XCTAssertEqual(rows.first?["user_agent"] as? String, "sipsak 0.9.8.1", file: file, line: line)
    }

    func testSipsakRegistersWithMD5Digest() async throws {
        let server = try await startServer(authAlgorithms: ["MD5"])
        try assertRegistered(server, try register(server, password: "alice-secret"))
    }

    /// The first try: the server on its default `auth.algorithms`
    /// (as the sample config), digest on.
    func testSipsakRegistersOnTheFirstTryWithTheDefaultAlgorithms() async throws {
        let server = try await startServer(authAlgorithms: nil)
        // sipsak exits 0 only when the REGISTER got its 200.
        try assertRegistered(server, try register(server, password: "alice-secret"))
    }

    /// An operator who puts SHA-256 first gets that order, which sipsak
    /// cannot answer: the order is the operator's, not re-sorted.
    func testSipsakCannotRegisterWhenTheOperatorPutsSHA256First() async throws {
        let server = try await startServer(authAlgorithms: ["SHA-256", "MD5"])
        let result = try register(server, password: "alice-secret")
        XCTAssertNotEqual(result.status, 0, result.stdout)
        XCTAssertEqual(try server.registrations(user: "alice").count, 0)
    }

    func testSipsakWithAWrongPasswordIsRefused() async throws {
        let server = try await startServer(authAlgorithms: nil)
        let result = try register(server, password: "not-the-password")
        XCTAssertNotEqual(result.status, 0)
        XCTAssertEqual(try server.registrations(user: "alice").count, 0)
    }

    func testSipsakOptionsPing() async throws {
        let server = try await startServer()
        let result = try SipwakeProcess.run(Self.sipsak, ["-s", "sip:127.0.0.1:\(server.port)", "-H", "127.0.0.1", "-v"])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("200 OK"), result.stdout)
    }
}
