import Foundation
import XCTest

/// Two sipwake nodes on one PostgreSQL database: a call pending on node A
/// reaches a phone that registers on node B, announced by B's commit
/// (NOTIFY) and forked by A.
final class TwoNodeTests: IntegrationTestCase {
    private var gateways: [LabPushGateway] = []

    override func tearDown() async throws {
        for gateway in gateways { await gateway.stop() }
        gateways.removeAll()
        try await super.tearDown()
    }

    private func startNodes() async throws -> (SipwakeProcess, SipwakeProcess, LabPushGateway, SharedTestDatabase) {
        let gateway = try await LabPushGateway.start()
        gateways.append(gateway)
        let shared = try SharedTestDatabase()
        let config = shared.config + """

            [auth]
            trusted_peers = ["127.0.0.2"]
            [push]
            gateway_url = "\(gateway.url)"
            timeout = 2
            [calls]
            wake_window = 10
            """
        let nodeA = try await startServer(config: config)
        let nodeB = try await startServer(config: config, users: false)
        return (nodeA, nodeB, gateway, shared)
    }

    func testACallPendingOnNodeAForksToThePhoneThatRegistersOnNodeB() async throws {
        let (nodeA, nodeB, gateway, shared) = try await startNodes()
        _ = try shared.database.stores.tuples.report(
            username: "alice", selector: "sel-two-nodes", appIDCalls: "com.example.voip", tokenCalls: "token-two-nodes",
            appIDOther: nil, tokenOther: nil, platform: .ios, provider: nil, now: Date())
        // Written by another process: node A sees it after its next read of
        // the tuple feed's head (every 20 ms), as an app's report long before a call.
        try await Task.sleep(for: .milliseconds(200))

        let pbx = try await startPhone("pbx", host: "127.0.0.2")
        let outgoing = await pbx.invite("sip:alice@localhost", via: nodeA.proxy("udp"),
                                        headers: [("X-Push-ID", "pair-two-nodes")], media: "audio",
                                        from: "\"Bob\" <sip:1002@pbx.example.com>")
        let push = try XCTUnwrapAsync(await gateway.waitForPush("NotifyIncomingCall"), "no push; node A:\n\(nodeA.log)")
        XCTAssertEqual(push["Id"], "pair-two-nodes")

        // The woken phone registers on the other node.
        let alice = try await startPhone("alice")
        let registered = await alice.register(registrar: nodeB.proxy("udp"), user: "alice", password: "alice-secret")
        XCTAssertEqual(registered, 200)
        let woke = ContinuousClock.now
        let incoming = try XCTUnwrapAsync(await alice.waitForInvite(timeout: .seconds(3)),
                                          "node A forks to the binding node B committed")
        XCTAssertLessThan(ContinuousClock.now - woke, .seconds(3))
        XCTAssertEqual(incoming.header("X-Push-ID"), "pair-two-nodes")
        XCTAssertTrue(incoming.header("Record-Route")?.contains(":\(nodeA.port)") ?? false,
                      "the INVITE comes from node A: \(incoming.header("Record-Route") ?? "-")")
        await alice.respond(incoming, status: 200)
        let answer = await pbx.waitForResponse(outgoing, atLeast: 200, timeout: .seconds(5))
        XCTAssertEqual(answer?.status, 200)
        XCTAssertTrue(nodeA.log.contains("bindings changed on another node"), "node A learnt it from the feed")
    }

    func testANodeKnowsTheBindingsTheOtherNodeCommitsAndForgetsTheRemovedOnes() async throws {
        let (nodeA, nodeB, _, _) = try await startNodes()
        let ua = try await makeUA(nodeB)
        let contact = "<sip:alice@127.0.0.1:\(try TestPorts.free())>"
        let ok = await ua.register(user: "alice", password: "alice-secret", contacts: [contact], expires: 600)
        XCTAssertEqual(ok.status, 200)
        // A query REGISTER on node A lists what node A holds in memory.
        let uaA = try await makeUA(nodeA)
        var held: [String] = []
        for _ in 0..<50 {
            held = await uaA.register(user: "alice", password: "alice-secret", contacts: []).contacts.compactMap { $0.uri?.host }
            if !held.isEmpty { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        XCTAssertEqual(held, ["127.0.0.1"], "node A holds node B's binding")

        let gone = await ua.register(user: "alice", password: "alice-secret", contacts: [contact], expires: 0)
        XCTAssertEqual(gone.status, 200)
        for _ in 0..<50 {
            held = await uaA.register(user: "alice", password: "alice-secret", contacts: []).contacts.compactMap { $0.uri?.host }
            if held.isEmpty { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        XCTAssertEqual(held, [], "and drops it once node B removed it")
    }
}
