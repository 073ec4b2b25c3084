import Foundation
import Model
@testable import PostgreSQLStorage
import TestSupport
import XCTest

/// Two sipwake nodes on one PostgreSQL database: a call pending on node A
/// reaches a phone that registers on node B, announced by B's commit
/// (NOTIFY) and forked by A.
final class TwoNodeTests: IntegrationTestCase {
    private var gateways: [LabPushGateway] = []
    /// The test's database; closed at tear-down.
    private var databases: [SharedTestDatabase] = []

    override func tearDown() async throws {
        for gateway in gateways { await gateway.stop() }
        gateways.removeAll()
        try await super.tearDown()
        databases.removeAll()
    }

    private func startNodes(wakeWindow: Int = 10) async throws
        -> (SipwakeProcess, SipwakeProcess, LabPushGateway, PostgreSQLDatabase) {
        let gateway = try await LabPushGateway.start()
        gateways.append(gateway)
        let shared = try SharedTestDatabase()
        databases.append(shared)
        let config = shared.config + """

            [auth]
            trusted_peers = ["127.0.0.2"]
            [push]
            gateway_url = "\(gateway.url)"
            timeout = 2
            [calls]
            wake_window = \(wakeWindow)
            """
        let nodeA = try await startServer(config: config)
        let nodeB = try await startServer(config: config, users: false)
        let database = shared.database
        return (nodeA, nodeB, gateway, database)
    }

    func testACallPendingOnNodeAForksToThePhoneThatRegistersOnNodeB() async throws {
        let (nodeA, nodeB, gateway, database) = try await startNodes()
        _ = try database.stores.tuples.report(
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
        // Node A timed it: node B's commit → the INVITE it forked.
        _ = await pbx.bye(outgoing)
        let stopped = await nodeA.stop()
        XCTAssertEqual(stopped, 0)
        let latency = try XCTUnwrap(nodeA.log.split(separator: "\n").first { $0.contains("latency.remote_register_to_fork") })
        XCTAssertTrue(latency.contains("latency.remote_register_to_fork=n=1 "), String(latency))
    }

    func testANodeKnowsTheBindingsTheOtherNodeCommitsAndForgetsTheRemovedOnes() async throws {
        let (nodeA, nodeB, _, database) = try await startNodes()
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

    // MARK: The call's endings reach the devices on the other node

    /// A device tuple for alice, as her app would report it, written by
    /// another process; node A reads it at its next look at the tuple feed.
    private func addTuple(_ database: PostgreSQLDatabase, selector: String, token: String) async throws {
        _ = try database.stores.tuples.report(
            username: "alice", selector: selector, appIDCalls: "com.example.voip", tokenCalls: token,
            appIDOther: "com.example.app", tokenOther: token, platform: .ios, provider: nil, now: Date())
        try await Task.sleep(for: .milliseconds(200))
    }

    /// Registers `phone` as alice on `node`, its Contact carrying its push token as `pn-prid`.
    private func register(_ phone: SofiaPhone, on node: SipwakeProcess, token: String? = nil) async -> Int {
        await phone.register(registrar: node.proxy("udp"), user: "alice", password: "alice-secret",
                             uriParams: token.map { ";pn-provider=apns;pn-prid=\($0)" })
    }

    /// Waits until `node` holds `count` bindings of alice (its table follows
    /// the other node's commits).
    private func waitForBindings(_ count: Int, on node: SipwakeProcess) async throws {
        let ua = try await makeUA(node)
        var held = -1
        for _ in 0..<100 where held != count {
            held = await ua.register(user: "alice", password: "alice-secret", contacts: []).contacts.count
            if held != count { try await Task.sleep(for: .milliseconds(20)) }
        }
        XCTAssertEqual(held, count, "node \(node.port) holds alice's bindings")
    }

    func testOneDeviceAnswersOnNodeAAndTheDeviceOnNodeBIsCancelledAndToldAnsweredElsewhere() async throws {
        let (nodeA, nodeB, gateway, database) = try await startNodes()
        try await addTuple(database, selector: "sel-phone", token: "token-phone")
        try await addTuple(database, selector: "sel-tablet", token: "token-tablet")
        let phone = try await startPhone("alice-phone")
        // Over UDP: a phone's TCP or TLS connection is held by the node that
        // took its REGISTER; across nodes it is reached through the edge.
        let tablet = try await startPhone("alice-tablet")
        let phoneRegistered = await register(phone, on: nodeA, token: "token-phone")
        let tabletRegistered = await register(tablet, on: nodeB, token: "token-tablet")
        XCTAssertEqual([phoneRegistered, tabletRegistered], [200, 200])
        try await waitForBindings(2, on: nodeA)

        let pbx = try await startPhone("pbx", host: "127.0.0.2")
        let outgoing = await pbx.invite("sip:alice@localhost", via: nodeA.proxy("udp"),
                                        headers: [("X-Push-ID", "pair-elsewhere")], media: "audio",
                                        from: "\"Bob\" <sip:1002@pbx.example.com>")
        let onPhone = try XCTUnwrapAsync(await phone.waitForInvite(timeout: .seconds(5)))
        let onTablet = try XCTUnwrapAsync(await tablet.waitForInvite(timeout: .seconds(5)),
                                          "node A forks to the tablet registered on node B")
        XCTAssertEqual(onTablet.header("X-Push-ID"), "pair-elsewhere")
        _ = await gateway.waitForPush("NotifyIncomingCall", token: "token-tablet")
        await tablet.respond(onTablet, status: 180)
        await phone.respond(onPhone, status: 200)
        let answer = await pbx.waitForResponse(outgoing, atLeast: 200, timeout: .seconds(5))
        XCTAssertEqual(answer?.status, 200)

        let event = await tablet.waitForEvent(onTablet, timeout: .seconds(5))
        guard case .cancelled(let reason)? = event else { return XCTFail("tablet got \(String(describing: event))") }
        XCTAssertTrue(reason?.contains("Call completed elsewhere") == true, reason ?? "no Reason")
        let elsewhere = await gateway.waitForPush("NotifyIncomingCallAnsweredElsewhere")
        XCTAssertEqual(elsewhere?["DeviceToken"], "token-tablet")
        XCTAssertEqual(elsewhere?["Id"], "pair-elsewhere")
        try await Task.sleep(for: .milliseconds(300))
        XCTAssertTrue(gateway.pushes("NotifyIncomingCallAnsweredElsewhere").allSatisfy { $0["DeviceToken"] != "token-phone" },
                      "the device that answered is not told")
    }

    func testACallCancelledOnNodeAEndsOnThePhoneOfNodeBWithAMissedCallMessage() async throws {
        let (nodeA, nodeB, gateway, database) = try await startNodes()
        try await addTuple(database, selector: "sel-cancel", token: "token-cancel")
        let alice = try await startPhone("alice")
        let registered = await register(alice, on: nodeB, token: "token-cancel")
        XCTAssertEqual(registered, 200)
        try await waitForBindings(1, on: nodeA)

        let pbx = try await startPhone("pbx", host: "127.0.0.2")
        let outgoing = await pbx.invite("sip:alice@localhost", via: nodeA.proxy("udp"),
                                        headers: [("X-Push-ID", "pair-missed")], media: "audio",
                                        from: "\"Bob\" <sip:1002@pbx.example.com>")
        let incoming = try XCTUnwrapAsync(await alice.waitForInvite(timeout: .seconds(5)))
        await alice.respond(incoming, status: 180)
        _ = await pbx.waitForResponse(outgoing, atLeast: 180, timeout: .seconds(5))
        await pbx.cancel(outgoing)
        let final = await pbx.waitForResponse(outgoing, atLeast: 200, timeout: .seconds(5))
        XCTAssertEqual(final?.status, 487)
        let event = await alice.waitForEvent(incoming, timeout: .seconds(5))
        guard case .cancelled? = event else { return XCTFail("phone got \(String(describing: event))") }
        let missed = await gateway.waitForPush("NotifyIncomingCallMissed")
        XCTAssertEqual(missed?["Id"], "pair-missed")
        let message = try XCTUnwrapAsync(await alice.waitForMessage(timeout: .seconds(5)),
                                         "node A sends the missed-call MESSAGE to the binding node B holds")
        XCTAssertEqual(message.contentType, "application/x-acro-missed-call")
        XCTAssertEqual(message.header("X-Push-ID"), "pair-missed")
    }

    func testAPhoneRegisteringOnNodeBJustAfterNodeAsCallEndedGetsTheMissedCallMessage() async throws {
        let (nodeA, nodeB, gateway, database) = try await startNodes(wakeWindow: 1)
        try await addTuple(database, selector: "sel-late", token: "token-late")
        let pbx = try await startPhone("pbx", host: "127.0.0.2")
        let outgoing = await pbx.invite("sip:alice@localhost", via: nodeA.proxy("udp"),
                                        headers: [("X-Push-ID", "pair-late")], media: "audio",
                                        from: "\"Bob\" <sip:1002@pbx.example.com>")
        _ = try XCTUnwrapAsync(await gateway.waitForPush("NotifyIncomingCall"), "no push; node A:\n\(nodeA.log)")
        let final = await pbx.waitForResponse(outgoing, atLeast: 200, timeout: .seconds(10))
        XCTAssertEqual(final?.status, 480)

        // The app, woken by the push, registers after the call ended, on the other node.
        let alice = try await startPhone("alice")
        let registered = await register(alice, on: nodeB, token: "token-late")
        XCTAssertEqual(registered, 200)
        let message = try XCTUnwrapAsync(await alice.waitForMessage(timeout: .seconds(3)),
                                         "node A keeps the ended call and tells the device node B registered")
        XCTAssertEqual(message.contentType, "application/x-acro-missed-call")
        XCTAssertEqual(message.header("X-Push-ID"), "pair-late")
        let invites = await alice.invitesReceived()
        XCTAssertEqual(invites, 0)
    }

    // MARK: Caches on each node

    /// The status of carol's REGISTER on `node` once it is `expected`,
    /// retried for up to 3 s while the node learns the change.
    private func registerCarol(on node: SipwakeProcess, password: String, until expected: Int) async throws -> Int? {
        let ua = try await makeUA(node)
        var status: Int?
        for _ in 0..<60 where status != expected {
            status = await ua.register(user: "carol", password: password,
                                       contacts: ["<sip:carol@127.0.0.1:\(node.port + 1000)>"], expires: 60).status
            if status != expected { try await Task.sleep(for: .milliseconds(50)) }
        }
        return status
    }

    func testAUserAddedChangedOrRemovedWithTheCLIIsCurrentOnBothNodes() async throws {
        let (nodeA, nodeB, _, database) = try await startNodes()
        XCTAssertEqual(try nodeB.cli(["users", "add", "carol", "--password", "carol-first"]).status, 0)
        for node in [nodeA, nodeB] {
            let status = try await registerCarol(on: node, password: "carol-first", until: 200)
            XCTAssertEqual(status, 200, "node \(node.port) knows the new user")
        }
        let changed = try nodeA.cli(["users", "password", "carol", "--password", "carol-second"])
        XCTAssertEqual(changed.status, 0, changed.stderr)
        for node in [nodeA, nodeB] {
            let status = try await registerCarol(on: node, password: "carol-second", until: 200)
            XCTAssertEqual(status, 200, "node \(node.port) has the new password")
            let old = try await registerCarol(on: node, password: "carol-first", until: 401)
            XCTAssertNotEqual(old, 200, "node \(node.port) refuses the old one")
        }
        XCTAssertEqual(try nodeB.cli(["users", "remove", "carol"]).status, 0)
        for node in [nodeA, nodeB] {
            let status = try await registerCarol(on: node, password: "carol-second", until: 401)
            XCTAssertNotEqual(status, 200, "node \(node.port) forgot the removed user")
        }
    }

    // MARK: Who owns a call's record

    /// Waits until the node that saved `pairingID`'s record has no
    /// connection left to the database (PostgreSQL has seen it die).
    private func waitUntilGone(nodeOf pairingID: String, _ database: PostgreSQLDatabase) async throws {
        let node = try database.read { db in
            try db.value("SELECT node FROM call_records WHERE pairing_id = \(pairingID)", as: String.self)
        }
        let name = try XCTUnwrap(node, "the record names its node")
        for _ in 0..<250 {
            let left = try database.read { db in
                try db.value("SELECT count(*) FROM pg_stat_activity WHERE application_name = \("sipwake/" + name)",
                             as: Int64.self)
            }
            if left == 0 { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        XCTFail("node \(name) still has connections")
    }

    func testANodeStartingLeavesARunningNodesCallOpenAndClosesAStoppedNodesCall() async throws {
        let (nodeA, nodeB, gateway, database) = try await startNodes(wakeWindow: 30)
        try await addTuple(database, selector: "sel-held", token: "token-held")
        let pbx = try await startPhone("pbx", host: "127.0.0.2")
        _ = await pbx.invite("sip:alice@localhost", via: nodeA.proxy("udp"),
                             headers: [("X-Push-ID", "pair-held")], media: "audio",
                             from: "\"Bob\" <sip:1002@pbx.example.com>")
        _ = try XCTUnwrapAsync(await gateway.waitForPush("NotifyIncomingCall"), "no push; node A:\n\(nodeA.log)")
        var saved: CallRecord?
        for _ in 0..<250 where saved == nil {
            saved = try database.stores.callRecords.find("pair-held")
            if saved == nil { try await Task.sleep(for: .milliseconds(20)) }
        }
        XCTAssertNotNil(saved, "node A saves the call in progress")
        XCTAssertNil(saved?.outcome)

        // Node B restarts while node A holds the call: it is left open.
        let stoppedB = await nodeB.stop()
        XCTAssertEqual(stoppedB, 0)
        try await nodeB.start()
        XCTAssertNil(try database.stores.callRecords.find("pair-held")?.outcome,
                     "a starting node leaves a running node's call alone")

        // Node A is killed: its call is gone with it, and the next node to
        // start (or the running nodes' sweep) closes its record.
        let killedA = await nodeA.stop(signal: SIGKILL)
        XCTAssertEqual(killedA, SIGKILL)
        try await waitUntilGone(nodeOf: "pair-held", database)
        let restartedB = await nodeB.stop()
        XCTAssertEqual(restartedB, 0)
        try await nodeB.start()
        XCTAssertEqual(try database.stores.callRecords.find("pair-held")?.outcome, .interrupted,
                       "the stopped node's call is closed\n\(nodeB.log)")
    }
}
