import Foundation
import XCTest

/// sipsak, Debian's SIP swiss army knife, as a second client written by
/// other people: it speaks MD5 digest only and reads the first challenge.
final class SipsakTests: IntegrationTestCase {
    static let sipsak = "/usr/bin/sipsak"

    override func setUp() async throws {
        try await super.setUp()
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: Self.sipsak),
                          "sipsak is not installed (the test command installs it)")
    }

    func testSipsakRegistersWithMD5Digest() async throws {
        let server = try await startServer(authAlgorithms: ["MD5"])
        let result = try SipwakeProcess.run(Self.sipsak, [
            "-U", "-s", "sip:alice@localhost", "-r", "\(server.port)", "-H", "127.0.0.1",
            "-u", "alice", "-a", "alice-secret", "-C", "sip:alice@127.0.0.1:5999", "-x", "300", "-i",
        ])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        let rows = try server.registrations(user: "alice")
        XCTAssertEqual(rows.first?["contact"] as? String, "sip:alice@127.0.0.1:5999")
        XCTAssertEqual(rows.first?["user_agent"] as? String, "sipsak 0.9.8.1")
    }

    func testSipsakWithAWrongPasswordIsRefused() async throws {
        let server = try await startServer(authAlgorithms: ["MD5"])
        let result = try SipwakeProcess.run(Self.sipsak, [
            "-U", "-s", "sip:alice@localhost", "-r", "\(server.port)", "-H", "127.0.0.1",
            "-u", "alice", "-a", "not-the-password", "-C", "sip:alice@127.0.0.1:5999", "-x", "300", "-i",
        ])
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
