import Foundation
import XCTest

/// SIP over TLS when a certificate and key are configured, checked with
/// OpenSSL's own client.
final class TLSTests: IntegrationTestCase {
    func testOptionsAndRegisterOverTLS() async throws {
        try XCTSkipUnless(TestCertificate.opensslInstalled, "openssl is not installed")
        let certificate = try TestCertificate()
        defer { certificate.remove() }

        let sipPort = try TestPorts.free()
        let tlsPort = try TestPorts.free()
        let server = try await startServer(config: """
            [sip]
            listen = ["udp:127.0.0.1:\(sipPort)", "tls:127.0.0.1:\(tlsPort)"]
            \(certificate.configSection)
            [auth]
            trusted_peers = ["127.0.0.1"]
            """)
        XCTAssertTrue(server.log.contains("tls:127.0.0.1:\(tlsPort)"), server.log)

        let request = """
            REGISTER sip:localhost SIP/2.0\r
            Via: SIP/2.0/TLS 127.0.0.1:5999;branch=z9hG4bKtls\(UUID().uuidString.prefix(8));rport\r
            From: <sip:alice@localhost>;tag=t1\r
            To: <sip:alice@localhost>\r
            Call-ID: tls-\(UUID().uuidString)\r
            CSeq: 1 REGISTER\r
            Contact: <sip:alice@10.9.9.9:5061;transport=tls>\r
            Expires: 600\r
            Max-Forwards: 70\r
            Content-Length: 0\r
            \r

            """
        let response = try await Self.exchangeOverTLS(port: tlsPort, request: request)
        XCTAssertTrue(response.hasPrefix("SIP/2.0 200"), response)
        let row = try XCTUnwrap(try server.registrations(user: "alice").first)
        XCTAssertEqual(row["transport"] as? String, "tls")
        // The client hung up without a TLS close: Sofia's complaint reaches our
        // log through the bridge, not raw stderr.
        try await Task.sleep(for: .milliseconds(300))
        XCTAssertTrue(server.log.contains("sipwake.sofia: [SIPCore] sofia sofia.message=tls_read"), server.log)
    }

    /// Writes `request` through `openssl s_client` and returns what came back.
    static func exchangeOverTLS(port: Int, request: String) async throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        p.arguments = ["s_client", "-connect", "127.0.0.1:\(port)", "-quiet", "-ign_eof"]
        let input = Pipe()
        let output = Pipe()
        p.standardInput = input
        p.standardOutput = output
        p.standardError = FileHandle.nullDevice
        try p.run()
        try? output.fileHandleForWriting.close()
        input.fileHandleForWriting.write(Data(request.utf8))
        try await Task.sleep(for: .milliseconds(1500))
        // s_client ignores SIGTERM while it waits on its input.
        kill(p.processIdentifier, SIGKILL)
        try? input.fileHandleForWriting.close()
        p.waitUntilExit()
        return String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }
}
