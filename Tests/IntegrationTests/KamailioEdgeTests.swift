import Foundation
import Glibc
import XCTest

/// The shipped Kamailio edge (etc/kamailio/kamailio-edge.cfg) in front of
/// real `sipwake serve` nodes, all on loopback: phones (127.0.0.1) register
/// and call through the edge (127.0.0.3, in the nodes' `sip.edge_proxies`);
/// the PBX (127.0.0.2, a trusted peer) calls a node straight. Each node has
/// its own SQLite file. docs/edge.md describes the set-up.
final class KamailioEdgeTests: IntegrationTestCase {
    override func setUp() async throws {
        try await super.setUp()
        try XCTSkipUnless(KamailioEdge.isInstalled,
                          "kamailio is not installed at \(KamailioEdge.executable) (scripts/install-deps --test installs it)")
    }

    // MARK: Set-up

    /// A sipwake node that takes Path from the edge and calls from the PBX.
    private func startNode() async throws -> SipwakeProcess {
        try await startServer(config: KamailioEdge.nodeConfig)
    }

    private func register(_ phone: SofiaPhone, through edge: KamailioEdge) async -> Int {
        await phone.register(registrar: edge.proxy, user: "alice", password: "alice-secret")
    }

    /// The contacts of alice's bindings on `node`.
    private func contacts(_ node: SipwakeProcess) throws -> [String] {
        try node.registrations(user: "alice").compactMap { $0["contact"] as? String }
    }

    /// Two nodes behind `edge`: alice registers through it; the node her
    /// hash chose (the only one holding her binding) and the other.
    private func registerAlice(_ nodes: [SipwakeProcess], through edge: KamailioEdge) async throws
        -> (owner: SipwakeProcess, other: SipwakeProcess) {
        let phone = try await startPhone("alice")
        let status = await register(phone, through: edge)
        XCTAssertEqual(status, 200, edge.log)
        let owners = try nodes.filter { try !contacts($0).isEmpty }
        XCTAssertEqual(owners.count, 1, "one node holds alice's binding")
        let owner = try XCTUnwrap(owners.first)
        return (owner, try XCTUnwrap(nodes.first { $0 !== owner }))
    }

    /// A new phone (`name`) registers as alice through `edge`: it gets 200,
    /// and the binding is on `node`. Returns how long the REGISTER took.
    @discardableResult
    private func assertNewPhoneRegisters(_ name: String, through edge: KamailioEdge, on node: SipwakeProcess,
                                         file: StaticString = #filePath, line: UInt = #line) async throws -> Duration {
        let phone = try await startPhone(name)
        let started = ContinuousClock.now
        let status = await register(phone, through: edge)
        let elapsed = ContinuousClock.now - started
        XCTAssertEqual(status, 200, edge.log, file: file, line: line)
        let contact = await phone.contactURI
        let bound = try contacts(node)
        XCTAssertTrue(bound.contains { $0.hasPrefix(contact) }, "\(contact) not in \(bound)", file: file, line: line)
        return elapsed
    }

    // MARK: A call through the edge

    func testAPhoneRegisteredThroughTheEdgeIsCalledThroughItAndHangsUpBothWays() async throws {
        let node = try await startNode()
        let edge = try await startEdge([node])
        let alice = try await startPhone("alice")
        let status = await register(alice, through: edge)
        XCTAssertEqual(status, 200, edge.log)

        let binding = try XCTUnwrap(try node.registrations(user: "alice").first)
        let path = try XCTUnwrap(binding["path"] as? [String])
        XCTAssertEqual(path.count, 1, "only the edge's own Path: \(path)")
        XCTAssertTrue(path.first?.contains("sip:\(edge.host):\(edge.port);lr;received=") == true,
                      "the edge's Path, with the phone's address: \(path)")
        XCTAssertEqual(binding["source"] as? String, "\(edge.host):\(edge.port)", "the REGISTER came from the edge")

        let pbx = try await startPhone("pbx", host: "127.0.0.2")
        for phoneHangsUp in [false, true] {
            let outgoing = await pbx.invite("sip:alice@localhost", via: node.proxy("udp"),
                                            from: "\"Bob Caller\" <sip:1002@pbx.example.com>")
            let incoming = try XCTUnwrapAsync(await alice.waitForInvite(timeout: .seconds(5)), "the INVITE reached the phone")
            assertReached(incoming, through: edge, from: node)
            await assertAnsweredAndHungUp(alice, incoming, pbx: pbx, outgoing, phoneHangsUp: phoneHangsUp)
        }
    }

    // MARK: Several nodes

    func testANodeThatStopsAnsweringIsLeftOutUntilItAnswersAgain() async throws {
        let nodes = [try await startNode(), try await startNode()]
        let nodeTimeout = 2000
        let edge = try await startEdge(nodes, pingInterval: 1, nodeTimeout: nodeTimeout)
        // The hash of "alice" chose one node; only that node has her binding.
        let (owner, other) = try await registerAlice(nodes, through: edge)

        await owner.stop(signal: SIGKILL)
        let downLine = "sipwake node sip:127.0.0.1:\(owner.port) is down"
        let markedDown = await edge.waitForLog(downLine, timeout: .seconds(10))
        XCTAssertTrue(markedDown, "the edge's pings saw the node go:\n\(edge.log)")

        // Now alice's REGISTERs go to the other node at once, not after a
        // timeout on the dead one.
        let elapsed = try await assertNewPhoneRegisters("alice2", through: edge, on: other)
        XCTAssertLessThan(elapsed, .milliseconds(nodeTimeout), "the dead node was not tried first")

        // The node comes back: the pings see it, and alice's hash picks it again.
        try await owner.start()
        let upLine = "sipwake node sip:127.0.0.1:\(owner.port) is up"
        let markedUp = await edge.waitForLog(upLine, timeout: .seconds(10))
        XCTAssertTrue(markedUp, "the edge's pings saw the node come back:\n\(edge.log)")
        try await assertNewPhoneRegisters("alice3", through: edge, on: owner)
        XCTAssertFalse(try contacts(other).contains { $0.hasPrefix("sip:alice3@") }, "the other node is not used for alice")
    }

    func testARegisterToANodeThatHangsIsTriedOnTheNextNode() async throws {
        let nodes = [try await startNode(), try await startNode()]
        // Pings too rare to notice: only the failed transaction moves alice.
        let edge = try await startEdge(nodes, pingInterval: 300, nodeTimeout: 1000)
        let (owner, other) = try await registerAlice(nodes, through: edge)

        let pid = try XCTUnwrap(owner.pid)
        kill(pid, SIGSTOP)
        defer { kill(pid, SIGCONT) }
        try await assertNewPhoneRegisters("alice2", through: edge, on: other)
        XCTAssertTrue(edge.log.contains("edge: node sip:127.0.0.1:\(owner.port) failed"), edge.log)
    }

    // MARK: No relay

    func testAPhoneCannotRelayThroughTheEdge() async throws {
        let node = try await startNode()
        let edge = try await startEdge([node])
        let victim = try await startPhone("victim")
        let victimPort = await victim.port
        let victimURI = "sip:127.0.0.1:\(victimPort);lr"
        let socket = try RawSIPSocket(udpTo: edge.port, host: edge.host)
        func status(_ request: String) -> Int? {
            socket.send(request)
            // Skip 100 Trying.
            for _ in 0..<5 {
                guard let response = socket.receive(timeout: 3) else { return nil }
                if let status = RawDigestClient.status(response), status >= 200 { return status }
            }
            return nil
        }
        let sdp = "v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\nm=audio 49170 RTP/AVP 0\r\n"
        let contentType = "Contact: <sip:mallory@127.0.0.1:\(socket.localPort)>\r\nContent-Type: application/sdp\r\n"

        // A new call to a foreign host: it goes to a node, which refuses it.
        let foreign = status(socket.request(method: "INVITE", uri: "sip:someone@198.51.100.1", extra: contentType, body: sdp))
        XCTAssertEqual(foreign, 403, "the node refused the foreign domain")

        // A new call with a Route of its own toward another loopback port:
        // the edge drops the Route and sends the INVITE to a node.
        let preloaded = status(socket.request(
            method: "INVITE", uri: "sip:someone@127.0.0.1:\(victimPort)",
            extra: "Route: <sip:\(edge.host):\(edge.port);lr>, <\(victimURI)>\r\n" + contentType, body: sdp))
        XCTAssertNotNil(preloaded, "the node answered")
        XCTAssertNotEqual(preloaded.map { $0 / 100 }, 2)

        // A request dressed up as in-dialog (To tag) with a Route toward the victim.
        let inDialog = socket.request(method: "INVITE", uri: "sip:victim@127.0.0.1:\(victimPort)",
                                      extra: "Route: <sip:\(edge.host):\(edge.port);lr>, <\(victimURI)>\r\n" + contentType,
                                      body: sdp)
            .replacingOccurrences(of: "To: <sip:probe@localhost>", with: "To: <sip:probe@localhost>;tag=forged")
        XCTAssertEqual(status(inDialog), 403, edge.log)
        let straight = socket.request(method: "BYE", uri: "sip:victim@127.0.0.1:\(victimPort)")
            .replacingOccurrences(of: "To: <sip:probe@localhost>", with: "To: <sip:probe@localhost>;tag=forged")
        XCTAssertEqual(status(straight), 404, edge.log)

        let reachedVictim = await victim.waitForInvite(timeout: .milliseconds(500))
        XCTAssertNil(reachedVictim, "nothing reached the other port")
        XCTAssertTrue(edge.log.contains("edge: relay refused"), edge.log)
    }

    func testAPathAPhoneSendsIsReplacedByTheEdgesOwn() async throws {
        let node = try await startNode()
        let edge = try await startEdge([node])
        let socket = try RawSIPSocket(udpTo: edge.port, host: edge.host)
        let client = RawDigestClient(socket: socket, user: "alice", password: "alice-secret")
        let contact = "<sip:alice@127.0.0.1:\(socket.localPort)>"
        let withPath = { (request: String) in
            request.replacingOccurrences(of: "Max-Forwards: 70\r\n",
                                         with: "Max-Forwards: 70\r\nPath: <sip:127.0.0.1:9;lr>\r\nSupported: path\r\n")
        }
        socket.send(withPath(client.register(contact: contact)))
        let challenge = try XCTUnwrap(socket.receive().flatMap(RawDigestClient.challenge), edge.log)
        socket.send(withPath(client.register(contact: contact, cseq: 2, authorization: client.authorization(
            challenge, method: "REGISTER", uri: "sip:localhost"))))
        XCTAssertEqual(RawDigestClient.status(socket.receive()), 200, edge.log)
        let path = try XCTUnwrap(try node.registrations(user: "alice").first?["path"] as? [String])
        XCTAssertEqual(path.count, 1, "\(path)")
        XCTAssertFalse(path.contains { $0.contains("127.0.0.1:9") }, "the phone's Path was dropped: \(path)")
    }
}
