import Foundation
import XCTest

/// Two sipwake nodes on one PostgreSQL database behind the shipped Kamailio
/// edge (docs/edge.md, README "More than one machine"): a phone registers
/// through the edge on the node its user hashes to; the PBX calls the other
/// node, which knows the binding, with the edge's Path, from the binding
/// events, and reaches the phone through the edge that holds its flow.
final class EdgeTwoNodeTests: IntegrationTestCase {
    private var gateways: [LabPushGateway] = []

    override func setUp() async throws {
        try await super.setUp()
        try XCTSkipUnless(KamailioEdge.isInstalled,
                          "kamailio is not installed at \(KamailioEdge.executable) (scripts/install-deps --test installs it)")
    }

    override func tearDown() async throws {
        for gateway in gateways { await gateway.stop() }
        gateways.removeAll()
        try await super.tearDown()
    }

    // MARK: Set-up

    /// Two nodes on `shared` that take Path from the edge and calls from
    /// the PBX, pushing to a lab gateway, and the edge in front of them.
    /// `beforeStart` runs once the users are in the database, before either node starts.
    private func startNodes(on shared: SharedTestDatabase, beforeStart: () throws -> Void = {}) async throws
        -> (nodes: [SipwakeProcess], edge: KamailioEdge, gateway: LabPushGateway) {
        let gateway = try await LabPushGateway.start()
        gateways.append(gateway)
        let config = shared.config + "\n" + KamailioEdge.nodeConfig + """

            [push]
            gateway_url = "\(gateway.url)"
            timeout = 2
            [calls]
            wake_window = 15
            """
        // The users are in the shared database: added once, through the first node's config.
        let nodes = [try await startServer(config: config, beforeStart: beforeStart),
                     try await startServer(config: config, users: false)]
        // Both nodes stay in the rotation however loaded the machine: a
        // node answers its pings and requests within 5 s, and the pings are
        // rare. So alice's REGISTERs always go to the node of her hash.
        return (nodes, try await startEdge(nodes, pingInterval: 30, nodeTimeout: 5000), gateway)
    }

    /// The node that accepted alice's REGISTER (it logged it), and the other one.
    private func aliceRegistered(among nodes: [SipwakeProcess], file: StaticString = #filePath, line: UInt = #line) throws
        -> (registrar: SipwakeProcess, other: SipwakeProcess) {
        let registrars = nodes.filter { !$0.logLines(with: "register accepted", "sip.aor=alice ").isEmpty }
        XCTAssertEqual(registrars.count, 1, "one node took alice's REGISTER: \(nodes.map { $0.logLines(with: "regist") })",
                       file: file, line: line)
        let registrar = try XCTUnwrap(registrars.first, file: file, line: line)
        return (registrar, try XCTUnwrap(nodes.first { $0 !== registrar }, file: file, line: line))
    }

    /// The node the edge sends alice's REGISTERs to, found with a REGISTER
    /// that only asks for her bindings (it binds nothing): the node that
    /// challenged it. The edge chooses by a hash of the user, so her next
    /// REGISTER goes there too while both nodes answer.
    private func nodeTakingAlice(among nodes: [SipwakeProcess], through edge: KamailioEdge) async throws -> SipwakeProcess {
        let probe = try await makeUA(proxy: edge.proxy)
        let query = await probe.register(user: "alice", password: "alice-secret", contacts: [])
        XCTAssertEqual(query.status, 200, edge.log)
        XCTAssertEqual(query.contacts.count, 0, "the query bound nothing")
        let challengers = nodes.filter { !$0.logLines(with: "digest challenge", "sip.method=REGISTER").isEmpty }
        XCTAssertEqual(challengers.count, 1, "one node answered the query")
        return try XCTUnwrap(challengers.first)
    }

    /// A device tuple for alice, written as an app's report would be, before the nodes start.
    private func reportTuple(_ shared: SharedTestDatabase, token: String) throws {
        _ = try shared.database.stores.tuples.report(
            username: "alice", selector: "sel-edge-two-nodes", appIDCalls: "com.example.voip", tokenCalls: token,
            appIDOther: nil, tokenOther: nil, platform: .ios, provider: nil, now: Date())
    }

    /// Where alice's phone claims to be in its Contact: a private address
    /// behind NAT that nothing answers on. Only the edge's Path (its
    /// `;received`, the phone's flow) leads to the phone.
    private static let privateContact = "192.168.7.7:5060"

    /// alice's phone registers through `edge` from behind NAT.
    private func registerBehindNAT(_ phone: SofiaPhone, through edge: KamailioEdge) async -> Int {
        await phone.register(registrar: edge.proxy, user: "alice", password: "alice-secret",
                             contactAddress: Self.privateContact)
    }

    // MARK: Answer across nodes

    func testThePBXCallsTheOtherNodeWhichReachesThePhoneThroughTheEdgeAndBothHangUp() async throws {
        let shared = try SharedTestDatabase()
        let (nodes, edge, _) = try await startNodes(on: shared)
        let alice = try await startPhone("alice")
        let registered = await registerBehindNAT(alice, through: edge)
        XCTAssertEqual(registered, 200, edge.log)
        let (registrar, other) = try aliceRegistered(among: nodes)

        // The shared rows hold the binding with the edge's Path.
        let binding = try XCTUnwrap(try other.registrations(user: "alice").first)
        let path = try XCTUnwrap(binding["path"] as? [String])
        XCTAssertTrue(path.count == 1 && path[0].contains("sip:\(edge.host):\(edge.port);lr;received="),
                      "the edge's Path with the phone's address: \(path)")
        // The other node has no REGISTER of its own: it learnt the binding from the events.
        let learnt = await other.waitForLog("bindings changed on another node", timeout: .seconds(10))
        XCTAssertTrue(learnt, "node :\(other.port) applied node :\(registrar.port)'s binding:\n\(other.log)")
        XCTAssertTrue(other.logLines(with: "register accepted").isEmpty)

        let pbx = try await startPhone("pbx", host: "127.0.0.2")
        for phoneHangsUp in [false, true] {
            let outgoing = await pbx.invite("sip:alice@localhost", via: other.proxy("udp"),
                                            from: "\"Bob Caller\" <sip:1002@pbx.example.com>")
            let incoming = try XCTUnwrapAsync(await alice.waitForInvite(timeout: .seconds(10)),
                                              "the INVITE reached the phone; node :\(other.port):\n\(other.log)\nedge:\n\(edge.log)")
            assertReached(incoming, through: edge, from: other)
            XCTAssertTrue(incoming.requestURI.contains(Self.privateContact), "to the Contact, by the flow: \(incoming.requestURI)")
            await assertAnsweredAndHungUp(alice, incoming, pbx: pbx, outgoing, phoneHangsUp: phoneHangsUp)
        }
        XCTAssertTrue(registrar.logLines(with: "call received").isEmpty, "the node that took the REGISTER saw no call")
    }

    // MARK: Wake across nodes

    /// The PBX calls alice (not registered, one device tuple) on the node
    /// her REGISTERs do not go to; that node pushes; the woken phone
    /// registers through the edge on the other node; the calling node
    /// forks to it through the edge. Returns the call as both ends see it.
    private func wakeAcrossNodes(_ shared: SharedTestDatabase, pushID: String) async throws
        -> (pbx: SofiaPhone, outgoing: SofiaPhoneOutgoingCall, alice: SofiaPhone, incoming: SofiaPhoneIncomingCall) {
        // Reported long before the call, as an app does: both nodes start with it.
        let (nodes, edge, gateway) = try await startNodes(on: shared) {
            try self.reportTuple(shared, token: "token-\(pushID)")
        }
        let registrar = try await nodeTakingAlice(among: nodes, through: edge)
        let caller = try XCTUnwrap(nodes.first { $0 !== registrar })

        let pbx = try await startPhone("pbx", host: "127.0.0.2")
        let outgoing = await pbx.invite("sip:alice@localhost", via: caller.proxy("udp"),
                                        headers: [("X-Push-ID", pushID)], media: "audio",
                                        from: "\"Bob Caller\" <sip:1002@pbx.example.com>")
        let push = try XCTUnwrapAsync(await gateway.waitForPush("NotifyIncomingCall"), "no push; caller:\n\(caller.log)")
        XCTAssertEqual(push["Id"], pushID)
        XCTAssertEqual(push["DeviceToken"], "token-\(pushID)")

        // The woken phone registers through the edge, which sends it to the other node.
        let alice = try await startPhone("alice")
        let registered = await registerBehindNAT(alice, through: edge)
        XCTAssertEqual(registered, 200, edge.log)
        XCTAssertTrue(try aliceRegistered(among: nodes).registrar === registrar,
                      "the REGISTER went to node :\(registrar.port), not to the calling node :\(caller.port)")

        let incoming = try XCTUnwrapAsync(await alice.waitForInvite(timeout: .seconds(10)),
                                          "the calling node forks to the binding; caller:\n\(caller.log)\nedge:\n\(edge.log)")
        XCTAssertEqual(incoming.header("X-Push-ID"), pushID)
        assertReached(incoming, through: edge, from: caller)
        XCTAssertTrue(incoming.requestURI.contains(Self.privateContact), "to the Contact, by the flow: \(incoming.requestURI)")
        XCTAssertTrue(caller.log.contains("bindings changed on another node"), "the calling node learnt it from the events")
        return (pbx, outgoing, alice, incoming)
    }

    func testACallPendingOnOneNodeForksThroughTheEdgeToThePhoneWokenOnTheOther() async throws {
        let shared = try SharedTestDatabase()
        let (pbx, outgoing, alice, incoming) = try await wakeAcrossNodes(shared, pushID: "pair-edge-answer")
        await assertAnsweredAndHungUp(alice, incoming, pbx: pbx, outgoing, phoneHangsUp: false)
    }

    func testThePBXsCancelReachesThePhoneWokenOnTheOtherNodeThroughTheEdge() async throws {
        let shared = try SharedTestDatabase()
        let (pbx, outgoing, alice, incoming) = try await wakeAcrossNodes(shared, pushID: "pair-edge-cancel")
        await pbx.cancel(outgoing)
        let event = await alice.waitForEvent(incoming, timeout: .seconds(10))
        guard case .cancelled = event else { return XCTFail("the phone got \(String(describing: event)), not the CANCEL") }
        let final = await pbx.waitForResponse(outgoing, atLeast: 200, timeout: .seconds(10))
        XCTAssertEqual(final?.status, 487)
    }
}
