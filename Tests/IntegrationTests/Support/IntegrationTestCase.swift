import Foundation
import XCTest

/// Shared set-up for tests that drive a real sipwake process.
class IntegrationTestCase: XCTestCase {
    private var uas: [SofiaTestUA] = []
    private var servers: [SipwakeProcess] = []

    /// A started server with `alice` (password `alice-secret`) and `bob` (`bob-secret`).
    func startServer(config: String = "", authAlgorithms: [String] = ["SHA-256", "MD5"], users: Bool = true) async throws -> SipwakeProcess {
        let server = try SipwakeProcess(config: config, authAlgorithms: authAlgorithms)
        servers.append(server)
        if users {
            try server.addUser("alice", password: "alice-secret")
            try server.addUser("bob", password: "bob-secret")
        }
        try await server.start()
        return server
    }

    func makeUA(_ server: SipwakeProcess, transport: String = "udp") async throws -> SofiaTestUA {
        let ua = SofiaTestUA(proxy: server.proxy(transport))
        try ua.loop.start()
        try await ua.start()
        uas.append(ua)
        return ua
    }

    override func tearDown() async throws {
        for ua in uas { await ua.stop() }
        uas.removeAll()
        for server in servers where server.isRunning { await server.stop() }
        servers.removeAll()
        try await super.tearDown()
    }

    func contactURIs(_ response: TestResponse) -> [String] {
        response.contacts.compactMap { $0.uri?.description }
    }
}
