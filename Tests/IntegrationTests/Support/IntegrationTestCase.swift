import Foundation
import XCTest

/// Shared set-up for tests that drive a real sipwake process.
class IntegrationTestCase: XCTestCase {
    private var uas: [SofiaTestUA] = []
    private var phones: [SofiaPhone] = []
    private var servers: [SipwakeProcess] = []
    private var edges: [KamailioEdge] = []

    /// A started server with `alice` (password `alice-secret`) and `bob`
    /// (`bob-secret`). `beforeStart` runs once the users are in its
    /// database, before the server starts.
    func startServer(config: String = "", authAlgorithms: [String]? = ["SHA-256", "MD5"], users: Bool = true,
                     beforeStart: () throws -> Void = {}) async throws -> SipwakeProcess {
        let server = try SipwakeProcess(config: config, authAlgorithms: authAlgorithms)
        servers.append(server)
        if users {
            try server.addUser("alice", password: "alice-secret")
            try server.addUser("bob", password: "bob-secret")
        }
        try beforeStart()
        try await server.start()
        return server
    }

    /// A started server (as `startServer`) and a UA that sends to it over UDP.
    func startServerAndUA(config: String = "") async throws -> (SipwakeProcess, SofiaTestUA) {
        let server = try await startServer(config: config)
        return (server, try await makeUA(server))
    }

    func makeUA(_ server: SipwakeProcess, transport: String = "udp") async throws -> SofiaTestUA {
        try await makeUA(proxy: server.proxy(transport))
    }

    /// A started UA that sends its requests through `proxy`.
    func makeUA(proxy: String) async throws -> SofiaTestUA {
        let ua = SofiaTestUA(proxy: proxy)
        try ua.loop.start()
        try await ua.start()
        uas.append(ua)
        return ua
    }

    /// The shipped Kamailio edge, started in front of `nodes` and stopped
    /// when the test ends; `pingInterval` (s) and `nodeTimeout` (ms) as in
    /// `KamailioEdge`.
    func startEdge(_ nodes: [SipwakeProcess], pingInterval: Int = 1, nodeTimeout: Int = 1000) async throws -> KamailioEdge {
        let edge = try KamailioEdge(nodes: nodes.map(\.port), pingInterval: pingInterval, nodeTimeout: nodeTimeout)
        edges.append(edge)
        try await edge.start()
        return edge
    }

    /// A started phone, stopped when the test ends.
    func startPhone(_ name: String, transport: String = "udp", host: String = "127.0.0.1") async throws -> SofiaPhone {
        let phone = SofiaPhone(name: name, transport: transport, host: host)
        try await phone.start()
        phones.append(phone)
        return phone
    }

    override func tearDown() async throws {
        for edge in edges { await edge.stop() }
        edges.removeAll()
        for phone in phones { await phone.stop() }
        phones.removeAll()
        for ua in uas { await ua.stop() }
        uas.removeAll()
        for server in servers where server.isRunning { await server.stop() }
        servers.removeAll()
        try await super.tearDown()
    }

    /// `phone` hangs up its side of a call: the BYE is answered 200, and
    /// `peer` sees it on its side.
    func assertHangUp(_ phone: SofiaPhone, _ call: some SofiaPhoneCall, reaches peer: SofiaPhone,
                      _ peerCall: some SofiaPhoneCall, timeout: Duration = .seconds(5),
                      file: StaticString = #filePath, line: UInt = #line) async {
        let status = await phone.bye(call)
        XCTAssertEqual(status, 200, "the BYE is answered", file: file, line: line)
        let gotBye = await peer.waitForBye(peerCall, timeout: timeout)
        XCTAssertTrue(gotBye, "the BYE reaches the other side", file: file, line: line)
    }

    func contactURIs(_ response: TestResponse) -> [String] {
        response.contacts.compactMap { $0.uri?.description }
    }
}
