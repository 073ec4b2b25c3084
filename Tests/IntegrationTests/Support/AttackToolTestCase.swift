import Foundation
import XCTest

/// Tests of the attack tools (docs/security.md) against a real server.
class AttackToolTestCase: IntegrationTestCase {
    private var certificates: [TestCertificate] = []

    /// A server listening on UDP, TCP and TLS (see `AttackTarget`).
    func startAttackTarget() async throws -> AttackTarget {
        try XCTSkipUnless(TestCertificate.opensslInstalled, "openssl is not installed")
        let certificate = try TestCertificate()
        certificates.append(certificate)
        let sipPort = try TestPorts.free()
        var tlsPort = try TestPorts.free()
        while tlsPort == sipPort { tlsPort = try TestPorts.free() }
        let server = try await startServer(config: AttackTarget.config(sipPort: sipPort, tlsPort: tlsPort, certificate: certificate))
        return AttackTarget(server: server, sipPort: sipPort, tlsPort: tlsPort, certificate: certificate)
    }

    /// A built executable of this package, next to `sipwake`.
    func executable(_ name: String) throws -> String {
        let path = URL(fileURLWithPath: SipwakeProcess.executable).deletingLastPathComponent().appendingPathComponent(name).path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw NSError(domain: "AttackToolTestCase", code: 1, userInfo: [NSLocalizedDescriptionKey: "\(path) is not built: swift build first"])
        }
        return path
    }

    /// The last lines of the server's log, for failure messages.
    func logTail(_ server: SipwakeProcess, lines: Int = 40) -> String {
        server.log.split(separator: "\n").suffix(lines).joined(separator: "\n")
    }

    override func tearDown() async throws {
        try await super.tearDown()
        for certificate in certificates { certificate.remove() }
        certificates.removeAll()
    }
}
