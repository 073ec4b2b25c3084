import Foundation
import Model
import SQLiteStorage
import XCTest

/// Calls end to end on loopback: a real `sipwake serve`, a PBX and phones
/// played by Sofia-SIP user agents (`SofiaPhone`), and a push gateway in the
/// test process (`LabPushGateway`) that records every push. The PBX calls from
/// 127.0.0.2, a trusted peer; phones register from 127.0.0.1 with digest auth.
final class CallFlowTests: IntegrationTestCase {
    private var gateways: [LabPushGateway] = []

    struct Lab {
        let server: SipwakeProcess
        let gateway: LabPushGateway
        let tuples: TupleStore
        var registrar: String { server.proxy("udp") }
    }

    override func tearDown() async throws {
        for gateway in gateways { await gateway.stop() }
        gateways.removeAll()
        try await super.tearDown()
    }

    // MARK: Set-up

    /// The admin token of a lab started with `metricsPort`.
    private static let metricsToken = "call-flow-metrics-token"

    private func startLab(wakeWindow: Int = 10, calls: String = "", metricsPort: Int? = nil) async throws -> Lab {
        let gateway = try await LabPushGateway.start()
        gateways.append(gateway)
        let http = metricsPort.map { "[http]\nlisten = \"127.0.0.1:\($0)\"\nadmin_token = \"\(Self.metricsToken)\"" } ?? ""
        let server = try await startServer(config: """
            \(http)
            [auth]
            trusted_peers = ["127.0.0.2"]
            [push]
            gateway_url = "\(gateway.url)"
            timeout = 2
            [calls]
            wake_window = \(wakeWindow)
            missed_call_grace = 5
            \(calls)
            """)
        let database = try SipwakeDatabase(path: server.directory.appendingPathComponent("sipwake.sqlite").path)
        return Lab(server: server, gateway: gateway, tuples: TupleStore(database: database))
    }

    /// The PBX, on a trusted address.
    private func pbx() async throws -> SofiaPhone {
        try await startPhone("pbx", host: "127.0.0.2")
    }

    /// Registers `phone` as alice (or `user`), its Contact carrying its push token as `pn-prid`.
    private func register(_ phone: SofiaPhone, _ lab: Lab, user: String = "alice", token: String? = nil,
                          instance: String? = nil) async -> Int {
        await phone.register(registrar: lab.registrar, user: user, password: "\(user)-secret", instanceID: instance,
                             uriParams: token.map { ";pn-provider=apns;pn-prid=\($0)" })
    }

    /// A device tuple for `user`, as the app would report it.
    @discardableResult
    private func addTuple(_ lab: Lab, user: String = "alice", selector: String, token: String) throws -> DeviceTuple {
        try lab.tuples.report(username: user, selector: selector, appIDCalls: "com.example.voip", tokenCalls: token,
                              appIDOther: "com.example.app", tokenOther: token, platform: .ios).tuple
    }

    /// A lab where alice registered (with a device tuple when `tuple` is
    /// given, as `addTuple` makes it) and the PBX calls her: her phone has
    /// the INVITE.
    private func callToAlice(pushID: String? = nil, tuple: (selector: String, token: String)? = nil) async throws
        -> (Lab, SofiaPhone, SofiaPhone, SofiaPhoneOutgoingCall, SofiaPhoneIncomingCall) {
        let lab = try await startLab()
        if let tuple { try addTuple(lab, selector: tuple.selector, token: tuple.token) }
        let alice = try await startPhone("alice")
        _ = await register(alice, lab)
        let pbx = try await pbx()
        let outgoing = await call(pbx, lab, pushID: pushID)
        let incoming = try XCTUnwrapAsync(await alice.waitForInvite(timeout: .seconds(5)))
        return (lab, alice, pbx, outgoing, incoming)
    }

    /// `phone` gets no INVITE besides `incoming`, which it then declines (486).
    private func assertNoSecondInviteThenDecline(_ phone: SofiaPhone, _ incoming: SofiaPhoneIncomingCall, _ message: String,
                                                 file: StaticString = #filePath, line: UInt = #line) async {
        let again = await phone.waitForInvite(timeout: .milliseconds(800))
        XCTAssertNil(again, message, file: file, line: line)
        let invites = await phone.invitesReceived()
        XCTAssertEqual(invites, 1, message, file: file, line: line)
        await phone.respond(incoming, status: 486)
    }

    /// The PBX calls alice and nobody answers: the final status it gets, and
    /// how long that took.
    /// `before` runs once the PBX is up, just before its INVITE leaves:
    /// what it writes reaches the server a few milliseconds before the call.
    private func unansweredCall(_ lab: Lab, pushID: String, timeout: Duration,
                                before: () throws -> Void = {}) async throws -> (status: Int?, elapsed: Duration) {
        let pbx = try await pbx()
        try before()
        let started = ContinuousClock.now
        let outgoing = await call(pbx, lab, pushID: pushID)
        let final = await pbx.waitForResponse(outgoing, atLeast: 200, timeout: timeout)
        return (final?.status, ContinuousClock.now - started)
    }

    private func call(_ pbx: SofiaPhone, _ lab: Lab, user: String = "alice", pushID: String? = nil,
                      media: String = "audio") async -> SofiaPhoneOutgoingCall {
        await pbx.invite("sip:\(user)@localhost", via: lab.server.proxy("udp"),
                         headers: pushID.map { [("X-Push-ID", $0)] } ?? [], media: media,
                         from: "\"Bob Caller\" <sip:1002@pbx.example.com>")
    }

    /// `callToAlice`, and her phone answers.
    private func answeredCallToAlice(pushID: String, tuple: (selector: String, token: String)? = nil,
                                     file: StaticString = #filePath, line: UInt = #line) async throws
        -> (Lab, SofiaPhone, SofiaPhone, SofiaPhoneOutgoingCall, SofiaPhoneIncomingCall) {
        let (lab, alice, pbx, outgoing, incoming) = try await callToAlice(pushID: pushID, tuple: tuple)
        let answer = await finalStatus(after: alice, responds: 200, to: incoming, pbx, outgoing)
        XCTAssertEqual(answer, 200, file: file, line: line)
        return (lab, alice, pbx, outgoing, incoming)
    }

    /// `phone` answers `incoming` with `status`; the final status the PBX gets for `outgoing`.
    private func finalStatus(after phone: SofiaPhone, responds status: Int, to incoming: SofiaPhoneIncomingCall,
                             _ pbx: SofiaPhone, _ outgoing: SofiaPhoneOutgoingCall) async -> Int? {
        await phone.respond(incoming, status: status)
        return await pbx.waitForResponse(outgoing, atLeast: 200, timeout: .seconds(5))?.status
    }

    /// The call's record from `sipwake calls show --json`, once it has ended.
    private func record(_ lab: Lab, _ key: String) async throws -> [String: Any] {
        try await lab.server.endedCallRecord(key)
    }

    // MARK: Answered

    func testRegisteredContactAnswers() async throws {
        let lab = try await startLab()
        let alice = try await startPhone("alice")
        let status = await register(alice, lab)
        XCTAssertEqual(status, 200)
        let pbx = try await pbx()
        let outgoing = await call(pbx, lab, pushID: "pair-answer-1")
        let incoming = try XCTUnwrapAsync(await alice.waitForInvite(timeout: .seconds(5)))
        XCTAssertEqual(incoming.header("X-Push-ID"), "pair-answer-1")
        XCTAssertEqual(incoming.header("Max-Forwards"), "69", "decremented once by sipwake (RFC 3261 §16.6)")
        XCTAssertTrue(incoming.headers["Record-Route"].contains { $0.contains(";swk=") }, incoming.text)
        XCTAssertTrue(incoming.requestURI.hasPrefix("sip:alice@127.0.0.1"), incoming.requestURI)

        await alice.respond(incoming, status: 180)
        let ringing = await pbx.waitForResponse(outgoing, atLeast: 180, timeout: .seconds(5))
        XCTAssertEqual(ringing?.status, 180)
        await alice.respond(incoming, status: 200)
        let answer = await pbx.waitForResponse(outgoing, atLeast: 200, timeout: .seconds(5))
        XCTAssertEqual(answer?.status, 200)
        let ack = await alice.waitForEvent(incoming, timeout: .seconds(5))
        XCTAssertEqual(ack, .ack, "the PBX's ACK follows the Record-Route to the phone")

        // BYE from the PBX reaches the phone through sipwake.
        await assertHangUp(pbx, outgoing, reaches: alice, incoming)

        let story = try await record(lab, "pair-answer-1")
        XCTAssertEqual(story["outcome"] as? String, "answered")
        XCTAssertEqual(story["final_status"] as? Int, 200)
        XCTAssertEqual((story["branches"] as? [[String: Any]])?.count, 1)
    }

    func testPairingIdIsTheCallIdWhenThePBXSendsNone() async throws {
        let (_, alice, _, _, incoming) = try await callToAlice()
        XCTAssertEqual(incoming.header("X-Push-ID"), incoming.callID)
        await alice.respond(incoming, status: 486)
    }

    func testPhoneHangsUpThroughSipwake() async throws {
        let (_, alice, pbx, outgoing, incoming) = try await callToAlice(pushID: "pair-bye-phone")
        await alice.respond(incoming, status: 200)
        let answer = await pbx.waitForResponse(outgoing, atLeast: 200, timeout: .seconds(5))
        XCTAssertEqual(answer?.status, 200)
        _ = await alice.waitForEvent(incoming, timeout: .seconds(5))
        // BYE from the phone goes back to the PBX by the route set.
        await assertHangUp(alice, incoming, reaches: pbx, outgoing)
    }

    // MARK: Wake-up

    func testDeviceRegisteringAfterThePushGetsTheCallAtOnce() async throws {
        let metricsPort = try TestPorts.free()
        let lab = try await startLab(metricsPort: metricsPort)
        try addTuple(lab, selector: "sel-wake", token: "token-wake")
        let pbx = try await pbx()
        let outgoing = await call(pbx, lab, pushID: "pair-wake-1")
        let push = try XCTUnwrapAsync(await lab.gateway.waitForPush("NotifyIncomingCall"))
        XCTAssertEqual(push["Id"], "pair-wake-1")
        XCTAssertEqual(push["DeviceToken"], "token-wake")
        XCTAssertEqual(push["AppId"], "com.example.voip")
        XCTAssertEqual(push["Selector"], "sel-wake")
        XCTAssertEqual(push["UserName"], "1002")
        XCTAssertEqual(push["Domain"], "pbx.example.com")
        XCTAssertEqual(push["UserDisplayName"], "Bob Caller")
        XCTAssertEqual(push["Media"], "audio")
        XCTAssertNotNil(push["Timestamp"].flatMap { Int($0) })

        // The phone wakes and registers; the INVITE must reach it well within the 3 s an iOS app waits.
        let alice = try await startPhone("alice")
        let woke = ContinuousClock.now
        let status = await register(alice, lab, token: "token-wake")
        XCTAssertEqual(status, 200)
        let incoming = try XCTUnwrapAsync(await alice.waitForInvite(timeout: .seconds(3)))
        XCTAssertLessThan(ContinuousClock.now - woke, .seconds(3))
        XCTAssertEqual(incoming.header("X-Push-ID"), push["Id"], "push and INVITE are paired")
        await alice.respond(incoming, status: 200)
        let answer = await pbx.waitForResponse(outgoing, atLeast: 200, timeout: .seconds(5))
        XCTAssertEqual(answer?.status, 200)

        let story = try await record(lab, "pair-wake-1")
        XCTAssertEqual(story["outcome"] as? String, "answered")
        let branches = story["branches"] as? [[String: Any]] ?? []
        XCTAssertEqual(branches.map { $0["reason"] as? String }, ["late-register"])
        let pushes = story["pushes"] as? [[String: Any]] ?? []
        XCTAssertEqual(pushes.first?["result"] as? String, "delivered")
        // The push result is on the tuple too.
        let tuple = try XCTUnwrap(try lab.tuples.list(username: "alice").first)
        XCTAssertEqual(tuple.lastPushResult, "delivered")
        XCTAssertEqual(tuple.lastPushStatus, 200)

        // How long the phone took to wake: from its push to its REGISTER and to its INVITE.
        let metrics = try SipwakeProcess.run("/usr/bin/curl", ["-s", "-H", "Authorization: Bearer \(Self.metricsToken)",
                                                               "http://127.0.0.1:\(metricsPort)/metrics"]).stdout
        for until in ["register", "invite"] {
            let name = #"sipwake_device_wake_seconds_count{provider="acrobits",platform="ios",until="\#(until)"}"#
            XCTAssertTrue(metrics.contains(name + " 1"), "\(name) in\n\(metrics)")
        }
        func sum(_ until: String) -> Double? {
            let name = #"sipwake_device_wake_seconds_sum{provider="acrobits",platform="ios",until="\#(until)"}"#
            return metrics.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ").last!) }
        }
        let toRegister = try XCTUnwrap(sum("register")), toInvite = try XCTUnwrap(sum("invite"))
        XCTAssertGreaterThan(toRegister, 0)
        XCTAssertGreaterThanOrEqual(toInvite, toRegister, "the INVITE leaves after the REGISTER arrived")
        XCTAssertLessThan(toInvite, 30)

        // Alice's one device, as the index holds it (sampled every second).
        var devices = ""
        for _ in 0..<30 {
            devices = try SipwakeProcess.run("/usr/bin/curl", ["-s", "-H", "Authorization: Bearer \(Self.metricsToken)",
                                                               "http://127.0.0.1:\(metricsPort)/metrics"]).stdout
            if devices.contains("sipwake_device_tuples 1.0") { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        XCTAssertTrue(devices.contains("sipwake_device_tuples 1.0"), devices)
    }

    func testVideoCallPushSaysVideo() async throws {
        let lab = try await startLab(wakeWindow: 1)
        try addTuple(lab, selector: "sel-video", token: "token-video")
        let pbx = try await pbx()
        _ = await call(pbx, lab, media: "audio,video")
        let push = try XCTUnwrapAsync(await lab.gateway.waitForPush("NotifyIncomingCall"))
        XCTAssertEqual(push["Media"], "video")
    }

    func testReRegisterWithoutProvisionalGetsANewInvite() async throws {
        let lab = try await startLab()
        try addTuple(lab, selector: "sel-re", token: "token-re")
        let instance = "33333333-3333-3333-3333-333333333333"
        // The phone registered from a socket that is now dead to it (the app
        // sleeps): the INVITE sent there is never answered.
        let asleep = try registerFromRawSocket(lab, instance: instance)
        let pbx = try await pbx()
        let outgoing = await call(pbx, lab, pushID: "pair-rereg")
        let lost = asleep.receive(timeout: 5)
        XCTAssertTrue(lost?.hasPrefix("INVITE ") == true, lost ?? "nothing")
        XCTAssertTrue(lost?.contains("X-Push-ID: pair-rereg") == true, lost ?? "nothing")
        // The push wakes the app; it registers again, same device, new socket.
        let alice = try await startPhone("alice")
        let refreshed = await register(alice, lab, instance: instance)
        XCTAssertEqual(refreshed, 200)
        let second = try XCTUnwrapAsync(await alice.waitForInvite(timeout: .seconds(3)))
        XCTAssertEqual(second.header("X-Push-ID"), "pair-rereg")
        await alice.respond(second, status: 200)
        let answer = await pbx.waitForResponse(outgoing, atLeast: 200, timeout: .seconds(5))
        XCTAssertEqual(answer?.status, 200)
        let story = try await record(lab, "pair-rereg")
        let branches = story["branches"] as? [[String: Any]] ?? []
        XCTAssertEqual(branches.map { $0["reason"] as? String }, ["registered", "re-register"])
        XCTAssertEqual(branches.first?["cancelled"] as? String, "replaced")
    }

    /// Registers alice (digest) from a plain UDP socket that never answers
    /// anything after: a phone whose app went to sleep.
    private func registerFromRawSocket(_ lab: Lab, instance: String) throws -> RawSIPSocket {
        let socket = try RawSIPSocket(udpTo: lab.server.port)
        let callID = UUID().uuidString
        func register(cseq: Int, authorization: String?) -> String? {
            let contact = "Contact: <sip:alice@127.0.0.1:\(socket.localPort)>;+sip.instance=\"<urn:uuid:\(instance)>\"\r\n"
            var text = socket.request(method: "REGISTER", uri: "sip:localhost",
                                      extra: contact + "Expires: 600\r\n" + (authorization.map { "Authorization: \($0)\r\n" } ?? ""))
            text = text.replacingOccurrences(of: "<sip:probe@localhost>", with: "<sip:alice@localhost>")
                .replacingOccurrences(of: "CSeq: 1 REGISTER", with: "CSeq: \(cseq) REGISTER")
            text = text.replacingOccurrences(of: #"Call-ID: [^\r]+"#, with: "Call-ID: \(callID)", options: .regularExpression)
            socket.send(text)
            return socket.receive(timeout: 5)
        }
        let challenge = try XCTUnwrap(register(cseq: 1, authorization: nil))
        let parameters = try XCTUnwrap(CallRoutingTests.challenge(challenge, header: "WWW-Authenticate"))
        let authorization = DigestClient.authorization(challenge: parameters, method: "REGISTER", uri: "sip:localhost",
                                                       user: "alice", password: "alice-secret")
        let ok = try XCTUnwrap(register(cseq: 2, authorization: authorization))
        XCTAssertTrue(ok.hasPrefix("SIP/2.0 200"), ok)
        return socket
    }

    func testReRegisterOfARingingPhoneSendsNoNewInvite() async throws {
        let (lab, alice, pbx, outgoing, incoming) = try await callToAlice(pushID: "pair-ringing")
        await alice.respond(incoming, status: 180)
        _ = await pbx.waitForResponse(outgoing, atLeast: 180, timeout: .seconds(5))
        _ = await register(alice, lab)
        await assertNoSecondInviteThenDecline(alice, incoming, "a REGISTER while ringing must not fork again")
    }

    func testRegisterThroughAChallengeForksExactlyOnce() async throws {
        let lab = try await startLab()
        try addTuple(lab, selector: "sel-401", token: "token-401")
        let pbx = try await pbx()
        _ = await call(pbx, lab, pushID: "pair-401")
        _ = try XCTUnwrapAsync(await lab.gateway.waitForPush("NotifyIncomingCall"))
        let alice = try await startPhone("alice")
        let status = await register(alice, lab)
        XCTAssertEqual(status, 200)
        let sent = await alice.registerRequestsSent()
        XCTAssertEqual(sent, 2, "the first REGISTER was challenged (401)")
        let incoming = try XCTUnwrapAsync(await alice.waitForInvite(timeout: .seconds(3)))
        XCTAssertEqual(incoming.header("X-Push-ID"), "pair-401")
        await assertNoSecondInviteThenDecline(alice, incoming, "the challenged REGISTER must not fork")
    }

    // MARK: Two devices

    func testTwoDevicesOneAnswersTheOtherIsCancelledAndToldAnsweredElsewhere() async throws {
        let lab = try await startLab()
        try addTuple(lab, selector: "sel-phone", token: "token-phone")
        try addTuple(lab, selector: "sel-tablet", token: "token-tablet")
        let phoneA = try await startPhone("alice-phone")
        let tablet = try await startPhone("alice-tablet", transport: "tcp")
        _ = await register(phoneA, lab, token: "token-phone", instance: "11111111-1111-1111-1111-111111111111")
        _ = await tablet.register(registrar: lab.server.proxy("tcp"), user: "alice", password: "alice-secret",
                                  instanceID: "22222222-2222-2222-2222-222222222222",
                                  uriParams: ";pn-provider=apns;pn-prid=token-tablet")
        let pbx = try await pbx()
        let outgoing = await call(pbx, lab, pushID: "pair-two")
        let onPhone = try XCTUnwrapAsync(await phoneA.waitForInvite(timeout: .seconds(5)))
        let onTablet = try XCTUnwrapAsync(await tablet.waitForInvite(timeout: .seconds(5)))
        XCTAssertEqual(onTablet.header("X-Push-ID"), "pair-two")
        // Both devices were pushed too (the pushes follow the branches).
        _ = await lab.gateway.waitForPush("NotifyIncomingCall", token: "token-phone")
        _ = await lab.gateway.waitForPush("NotifyIncomingCall", token: "token-tablet")
        await phoneA.respond(onPhone, status: 180)
        await tablet.respond(onTablet, status: 180)
        await phoneA.respond(onPhone, status: 200)
        let answer = await pbx.waitForResponse(outgoing, atLeast: 200, timeout: .seconds(5))
        XCTAssertEqual(answer?.status, 200)

        let event = await tablet.waitForEvent(onTablet, timeout: .seconds(5))
        guard case .cancelled(let reason)? = event else { return XCTFail("tablet got \(String(describing: event))") }
        XCTAssertTrue(reason?.contains("cause=200") == true, reason ?? "no Reason")
        XCTAssertTrue(reason?.contains("Call completed elsewhere") == true, reason ?? "no Reason")

        let elsewhere = await lab.gateway.waitForPush("NotifyIncomingCallAnsweredElsewhere")
        XCTAssertEqual(elsewhere?["DeviceToken"], "token-tablet")
        XCTAssertEqual(elsewhere?["AppId"], "com.example.app", "the other token pair")
        XCTAssertEqual(elsewhere?["Id"], "pair-two")
        try await Task.sleep(for: .milliseconds(300))
        XCTAssertTrue(lab.gateway.pushes("NotifyIncomingCallAnsweredElsewhere").allSatisfy { $0["DeviceToken"] != "token-phone" },
                      "the device that answered is not told")
    }

    func testTheDeviceWhoseAppReportedItsInstanceAsSelectorIsNotToldItAnsweredElsewhere() async throws {
        let lab = try await startLab()
        // The phone's app reported its +sip.instance as the selector; its
        // Contact names no token, so only the instance tells it apart.
        let phoneInstance = "33333333-3333-4333-8333-333333333333"
        try addTuple(lab, selector: "urn:uuid:\(phoneInstance)", token: "token-by-instance")
        try addTuple(lab, selector: "sel-other-tablet", token: "token-other-tablet")
        let phone = try await startPhone("alice-phone")
        let tablet = try await startPhone("alice-tablet", transport: "tcp")
        let phoneRegistered = await register(phone, lab, instance: phoneInstance)
        XCTAssertEqual(phoneRegistered, 200)
        let tabletRegistered = await tablet.register(registrar: lab.server.proxy("tcp"), user: "alice",
                                                     password: "alice-secret",
                                                     instanceID: "44444444-4444-4444-8444-444444444444")
        XCTAssertEqual(tabletRegistered, 200)
        let pbx = try await pbx()
        let outgoing = await call(pbx, lab, pushID: "pair-by-instance")
        let onPhone = try XCTUnwrapAsync(await phone.waitForInvite(timeout: .seconds(5)))
        _ = try XCTUnwrapAsync(await tablet.waitForInvite(timeout: .seconds(5)))
        _ = await lab.gateway.waitForPush("NotifyIncomingCall", token: "token-by-instance")
        _ = await lab.gateway.waitForPush("NotifyIncomingCall", token: "token-other-tablet")
        await phone.respond(onPhone, status: 200)
        let answer = await pbx.waitForResponse(outgoing, atLeast: 200, timeout: .seconds(5))
        XCTAssertEqual(answer?.status, 200)

        let elsewhere = await lab.gateway.waitForPush("NotifyIncomingCallAnsweredElsewhere")
        XCTAssertEqual(elsewhere?["DeviceToken"], "token-other-tablet")
        // The answered-elsewhere pushes are decided with the answer: the
        // ended record lists every one of them.
        let story = try await record(lab, "pair-by-instance")
        XCTAssertEqual(story["outcome"] as? String, "answered")
        let told = (story["pushes"] as? [[String: Any]] ?? [])
            .filter { $0["verb"] as? String == "NotifyIncomingCallAnsweredElsewhere" }.compactMap { $0["selector"] as? String }
        XCTAssertEqual(told, ["sel-other-tablet"], "the answering phone is not told")
        XCTAssertTrue(lab.gateway.pushes("NotifyIncomingCallAnsweredElsewhere").allSatisfy { $0["DeviceToken"] != "token-by-instance" })
    }

    // MARK: Hang-up

    func testTheDeviceHangingUpAfterTheCallWasForgottenEndsItsTalkTime() async throws {
        // Nothing was pushed: the answered call is forgotten at once, and its
        // BYE finds the stored record.
        let (lab, alice, _, _, incoming) = try await answeredCallToAlice(pushID: "pair-talk")
        let talking = try await record(lab, "pair-talk")
        XCTAssertTrue(talking["hung_up_at"] is NSNull, "still talking")
        let bye = await alice.bye(incoming)
        XCTAssertEqual(bye, 200)

        let story = try await lab.server.hungUpCallRecord("pair-talk")
        XCTAssertEqual(story["hung_up_by"] as? String, "callee")
        let answeredAt = try XCTUnwrap(story["ended_at"] as? String)
        let hungUpAt = try XCTUnwrap(story["hung_up_at"] as? String)
        XCTAssertLessThanOrEqual(answeredAt, hungUpAt, "ISO 8601 UTC times sort as text")
        let events = (story["events"] as? [[String: Any]] ?? []).compactMap { $0["event"] as? String }
        XCTAssertEqual(events.last, "call hung up")
        // The list shows the time to answer and the talk time (then REASON, `-`).
        let list = try lab.server.cli(["calls", "list"])
        let row = try XCTUnwrap(list.stdout.split(separator: "\n").first { $0.contains("pair-talk") }, list.stdout)
        let times = row.split(separator: " ").suffix(3).dropLast()
        XCTAssertTrue(times.allSatisfy { $0.hasSuffix("s") }, String(row))
    }

    func testTheCallerHangingUpWhileTheCallIsStillKeptEndsItsTalkTime() async throws {
        // A pushed device keeps the ended call for the missed-call grace
        // period: the BYE goes to the record in memory, and its later saves keep it.
        let (lab, alice, pbx, outgoing, incoming) = try await answeredCallToAlice(pushID: "pair-talk-kept",
                                                                                  tuple: ("sel-kept", "token-kept"))
        let bye = await pbx.bye(outgoing)
        XCTAssertEqual(bye, 200)
        let byeSeen = await alice.waitForBye(incoming, timeout: .seconds(5))
        XCTAssertTrue(byeSeen)

        let story = try await lab.server.hungUpCallRecord("pair-talk-kept")
        XCTAssertEqual(story["hung_up_by"] as? String, "caller")
        XCTAssertEqual(story["outcome"] as? String, "answered")
    }

    // MARK: Endings

    func testCallerCancelGives487AndMissedNotifications() async throws {
        let (lab, alice, pbx, outgoing, incoming) = try await callToAlice(pushID: "pair-cancel", tuple: ("sel-cancel", "token-cancel"))
        _ = await lab.gateway.waitForPush("NotifyIncomingCall")
        await alice.respond(incoming, status: 180)
        _ = await pbx.waitForResponse(outgoing, atLeast: 180, timeout: .seconds(5))
        await pbx.cancel(outgoing)
        let final = await pbx.waitForResponse(outgoing, atLeast: 200, timeout: .seconds(5))
        XCTAssertEqual(final?.status, 487)
        let event = await alice.waitForEvent(incoming, timeout: .seconds(5))
        guard case .cancelled? = event else { return XCTFail("phone got \(String(describing: event))") }
        let missed = await lab.gateway.waitForPush("NotifyIncomingCallMissed")
        XCTAssertEqual(missed?["Id"], "pair-cancel")
        XCTAssertEqual(missed?["Badge"], "1")
        let message = try XCTUnwrapAsync(await alice.waitForMessage(timeout: .seconds(5)))
        XCTAssertEqual(message.contentType, "application/x-acro-missed-call")
        XCTAssertEqual(message.header("X-Push-ID"), "pair-cancel")
        let story = try await record(lab, "pair-cancel")
        XCTAssertEqual(story["outcome"] as? String, "cancelled")
        // The record shows the missed-call push answered while the call is
        // still in its grace period.
        var missedResult: String?
        for _ in 0..<20 where missedResult != "delivered" {
            let now = try await record(lab, "pair-cancel")
            missedResult = (now["pushes"] as? [[String: Any]])?
                .first { $0["verb"] as? String == "NotifyIncomingCallMissed" }?["result"] as? String
            if missedResult != "delivered" { try await Task.sleep(for: .milliseconds(100)) }
        }
        XCTAssertEqual(missedResult, "delivered")
    }

    func testCancelAnsweredElsewhereUpstreamSendsAnsweredElsewhere() async throws {
        let (lab, alice, pbx, outgoing, incoming) = try await callToAlice(pushID: "pair-up", tuple: ("sel-up", "token-up"))
        _ = await lab.gateway.waitForPush("NotifyIncomingCall")
        await alice.respond(incoming, status: 180)
        _ = await pbx.waitForResponse(outgoing, atLeast: 180, timeout: .seconds(5))
        await pbx.cancel(outgoing, reason: "SIP;cause=200;text=\"Call completed elsewhere\"")
        let final = await pbx.waitForResponse(outgoing, atLeast: 200, timeout: .seconds(5))
        XCTAssertEqual(final?.status, 487)
        let event = await alice.waitForEvent(incoming, timeout: .seconds(5))
        guard case .cancelled(let reason)? = event else { return XCTFail("phone got \(String(describing: event))") }
        XCTAssertTrue(reason?.contains("cause=200") == true, "the caller's Reason is passed on: \(reason ?? "none")")
        let elsewhere = await lab.gateway.waitForPush("NotifyIncomingCallAnsweredElsewhere")
        XCTAssertEqual(elsewhere?["Id"], "pair-up")
        XCTAssertTrue(lab.gateway.pushes("NotifyIncomingCallMissed").isEmpty)
        let story = try await record(lab, "pair-up")
        XCTAssertEqual(story["outcome"] as? String, "answered-elsewhere")
    }

    func testDeclineEndsTheCallWith603() async throws {
        let (lab, alice, pbx, outgoing, incoming) = try await callToAlice(pushID: "pair-decline")
        let final = await finalStatus(after: alice, responds: 603, to: incoming, pbx, outgoing)
        XCTAssertEqual(final, 603)
        let story = try await record(lab, "pair-decline")
        XCTAssertEqual(story["outcome"] as? String, "declined")
    }

    func testWindowClosingGives480AndMissedPush() async throws {
        let lab = try await startLab(wakeWindow: 2)
        try addTuple(lab, selector: "sel-sleepy", token: "token-sleepy")
        let (status, elapsed) = try await unansweredCall(lab, pushID: "pair-timeout", timeout: .seconds(10))
        XCTAssertEqual(status, 480)
        XCTAssertGreaterThanOrEqual(elapsed, .seconds(2), "held for the wake window")
        let missed = await lab.gateway.waitForPush("NotifyIncomingCallMissed")
        XCTAssertEqual(missed?["DeviceToken"], "token-sleepy")
        let story = try await record(lab, "pair-timeout")
        XCTAssertEqual(story["outcome"] as? String, "no-answer")
    }

    /// How the server says where call `pushID` found its callee's tuples (`memory` or `store`).
    private func tupleSource(_ lab: Lab, _ pushID: String) -> String? {
        lab.server.log.split(separator: "\n")
            .first { $0.contains("call.pairing_id=\(pushID) ") && $0.contains("call received") }?
            .split(separator: " ").first { $0.hasPrefix("call.tuples=") }
            .map { String($0.dropFirst("call.tuples=".count)) }
    }

    func testCallsPushFromTheTuplesInMemoryButNeverFromAnOlderCopyThanTheStore() async throws {
        let lab = try await startLab(wakeWindow: 1)
        // Written by another process (this test's own connection) while the
        // server runs, a moment before the call: the server's 200 ms refresh
        // has (almost always) not run yet.
        var written: DeviceTuple?
        let (first, _) = try await unansweredCall(lab, pushID: "pair-index-1", timeout: .seconds(10)) {
            written = try addTuple(lab, selector: "sel-index", token: "token-first")
        }
        let tuple = try XCTUnwrap(written)
        XCTAssertEqual(first, 480)
        let push1 = await lab.gateway.waitForPush("NotifyIncomingCall", token: "token-first")
        XCTAssertEqual(push1?["Id"], "pair-index-1")
        // The store was read when the index had not seen that write yet; had
        // the refresh run first, memory had the tuple too.
        XCTAssertNotNil(tupleSource(lab, "pair-index-1"))

        // Caught up during that call: the next call's pushes come from memory.
        let (second, _) = try await unansweredCall(lab, pushID: "pair-index-2", timeout: .seconds(10))
        XCTAssertEqual(second, 480)
        XCTAssertEqual(tupleSource(lab, "pair-index-2"), "memory", lab.server.log)
        XCTAssertEqual(lab.gateway.pushes("NotifyIncomingCall").filter { $0["Id"] == "pair-index-2" }
            .map { $0["DeviceToken"] }, ["token-first"])

        // Another process gives the device a new token just before a call;
        // the call pushes the new one, never the old one the index held
        // (it reads the store when the index is behind the feed).
        let (third, _) = try await unansweredCall(lab, pushID: "pair-index-3", timeout: .seconds(10)) {
            _ = try lab.tuples.update(id: tuple.id, username: "alice", selector: "sel-index",
                                      appIDCalls: "com.example.voip", tokenCalls: "token-second",
                                      appIDOther: "com.example.app", tokenOther: "token-second", platform: .ios,
                                      provider: "acrobits")
        }
        XCTAssertEqual(third, 480)
        XCTAssertEqual(lab.gateway.pushes("NotifyIncomingCall").filter { $0["Id"] == "pair-index-3" }
            .map { $0["DeviceToken"] }, ["token-second"])

        // And once the device's tuple is gone, nobody is pushed.
        XCTAssertTrue(try lab.tuples.delete(id: tuple.id))
        let (fourth, _) = try await unansweredCall(lab, pushID: "pair-index-4", timeout: .seconds(10))
        XCTAssertEqual(fourth, 480)
        XCTAssertEqual(lab.gateway.pushes("NotifyIncomingCall").filter { $0["Id"] == "pair-index-4" }.count, 0)

        // Another process adds a device while no call comes: the server's
        // own refresh catches up, so the next call is served from memory.
        try addTuple(lab, selector: "sel-index-2", token: "token-third")
        try await Task.sleep(for: .seconds(2))
        let (fifth, _) = try await unansweredCall(lab, pushID: "pair-index-5", timeout: .seconds(10))
        XCTAssertEqual(fifth, 480)
        XCTAssertEqual(tupleSource(lab, "pair-index-5"), "memory", "caught up without a call asking")
        XCTAssertEqual(lab.gateway.pushes("NotifyIncomingCall").filter { $0["Id"] == "pair-index-5" }
            .map { $0["DeviceToken"] }, ["token-third"])
    }

    func testStaleTokenDeletesTheTupleAndTheCallFailsFast() async throws {
        let lab = try await startLab(wakeWindow: 20)
        let tuple = try addTuple(lab, selector: "sel-stale", token: "token-stale")
        lab.gateway.sink.setRule(.gone, forToken: "token-stale")
        let (status, elapsed) = try await unansweredCall(lab, pushID: "pair-stale", timeout: .seconds(15))
        XCTAssertEqual(status, 480)
        XCTAssertLessThan(elapsed, .seconds(10), "not held for the 20 s window")
        var gone = false
        for _ in 0..<50 where !gone {
            gone = try lab.tuples.get(id: tuple.id) == nil
            if !gone { try await Task.sleep(for: .milliseconds(100)) }
        }
        XCTAssertTrue(gone, "the stale tuple is deleted")
        let story = try await record(lab, "pair-stale")
        let pushes = story["pushes"] as? [[String: Any]] ?? []
        XCTAssertEqual(pushes.first?["result"] as? String, "token-gone")
        XCTAssertEqual(pushes.first?["http_status"] as? Int, 404)
    }

    func testGatewayErrorIsRetriedOnce() async throws {
        let lab = try await startLab(wakeWindow: 3)
        try addTuple(lab, selector: "sel-500", token: "token-500")
        lab.gateway.sink.setRule(.fail(status: 500), forToken: "token-500")
        let (status, _) = try await unansweredCall(lab, pushID: "pair-500", timeout: .seconds(10))
        XCTAssertEqual(status, 480)
        XCTAssertEqual(lab.gateway.pushes("NotifyIncomingCall").count, 2, "one retry")
        let story = try await record(lab, "pair-500")
        let attempts = (story["pushes"] as? [[String: Any]] ?? []).filter { $0["verb"] as? String == "NotifyIncomingCall" }
        XCTAssertEqual(attempts.compactMap { $0["attempt"] as? Int }, [1, 2])
    }

    func testDeviceRegisteringJustAfterTheEndGetsTheMissedCallMessage() async throws {
        let lab = try await startLab(wakeWindow: 1)
        try addTuple(lab, selector: "sel-late", token: "token-late")
        let (status, _) = try await unansweredCall(lab, pushID: "pair-late", timeout: .seconds(10))
        XCTAssertEqual(status, 480)
        // The app, woken by the push, registers after the call ended.
        let alice = try await startPhone("alice")
        _ = await register(alice, lab, token: "token-late")
        let message = try XCTUnwrapAsync(await alice.waitForMessage(timeout: .seconds(3)))
        XCTAssertEqual(message.contentType, "application/x-acro-missed-call")
        XCTAssertEqual(message.header("X-Push-ID"), "pair-late")
        let invites = await alice.invitesReceived()
        XCTAssertEqual(invites, 0)
    }

    func testShutdownDuringCallsAnswersTheCallerAndExitsCleanly() async throws {
        let lab = try await startLab(wakeWindow: 30)
        try addTuple(lab, selector: "sel-shutdown", token: "token-shutdown")
        let alice = try await startPhone("alice")
        _ = await register(alice, lab)
        let pbx = try await pbx()
        // One call answered and hung up, one still pending when SIGTERM comes.
        let done = await call(pbx, lab, pushID: "pair-done")
        let incoming = try XCTUnwrapAsync(await alice.waitForInvite(timeout: .seconds(5)))
        await alice.respond(incoming, status: 200)
        _ = await pbx.waitForResponse(done, atLeast: 200, timeout: .seconds(5))
        _ = await pbx.bye(done)
        let pending = await call(pbx, lab, pushID: "pair-pending")
        let ringing = try XCTUnwrapAsync(await alice.waitForInvite(timeout: .seconds(5)))
        await alice.respond(ringing, status: 180)
        _ = await pbx.waitForResponse(pending, atLeast: 180, timeout: .seconds(5))
        let exit = await lab.server.stop()
        XCTAssertEqual(exit, 0, lab.server.log)
        let final = await pbx.waitForResponse(pending, atLeast: 200, timeout: .seconds(5))
        XCTAssertEqual(final?.status, 503, "the PBX can route the waiting call elsewhere")
        XCTAssertEqual(final?.header("Retry-After"), "5")
        let event = await alice.waitForEvent(ringing, timeout: .seconds(5))
        guard case .cancelled(let reason)? = event else {
            return XCTFail("the ringing phone got \(String(describing: event))")
        }
        XCTAssertEqual(reason, "SIP;cause=503;text=\"Shutting down\"")
        // The devices are told before the exit: the missed-call MESSAGE and push.
        let message = try XCTUnwrapAsync(await alice.waitForMessage(timeout: .seconds(5)))
        XCTAssertEqual(message.contentType, "application/x-acro-missed-call")
        XCTAssertEqual(message.header("X-Push-ID"), "pair-pending")
        XCTAssertEqual(lab.gateway.pushes("NotifyIncomingCallMissed").map { $0["Id"] }, ["pair-pending"])
        let story = try await record(lab, "pair-pending")
        XCTAssertEqual(story["outcome"] as? String, "interrupted")
        XCTAssertEqual(story["final_status"] as? Int, 503)
        let answered = try await record(lab, "pair-done")
        XCTAssertEqual(answered["outcome"] as? String, "answered", "an ended call keeps its outcome")
    }

    func testShutdownDuringAPushWokenCallSendsTheMissedPushAndRecordsInterrupted() async throws {
        let lab = try await startLab(wakeWindow: 30)
        try addTuple(lab, selector: "sel-sigterm", token: "token-sigterm")
        let pbx = try await pbx()
        let outgoing = await call(pbx, lab, pushID: "pair-sigterm")
        let woken = await lab.gateway.waitForPush("NotifyIncomingCall")
        XCTAssertEqual(woken?["Id"], "pair-sigterm")
        // No phone answers: the call is pending when SIGTERM comes.
        let started = ContinuousClock.now
        let exit = await lab.server.stop()
        XCTAssertEqual(exit, 0, lab.server.log)
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(5), "no grace period at shutdown")
        let final = await pbx.waitForResponse(outgoing, atLeast: 200, timeout: .seconds(5))
        XCTAssertEqual(final?.status, 503)
        XCTAssertEqual(final?.header("Retry-After"), "5")
        // Sent, and answered, before the process exited.
        let missed = lab.gateway.pushes("NotifyIncomingCallMissed")
        XCTAssertEqual(missed.map { $0["Id"] }, ["pair-sigterm"], lab.server.log)
        XCTAssertEqual(missed.first?["DeviceToken"], "token-sigterm")
        XCTAssertTrue(lab.server.log.contains("shutting down calls"), lab.server.log)

        let story = try await record(lab, "pair-sigterm")
        XCTAssertEqual(story["outcome"] as? String, "interrupted")
        XCTAssertEqual(story["final_status"] as? Int, 503)
        XCTAssertTrue(story["ended_at"] is String, "the record has its end time: \(story)")
        let pushes = story["pushes"] as? [[String: Any]] ?? []
        XCTAssertEqual(pushes.map { $0["verb"] as? String }, ["NotifyIncomingCall", "NotifyIncomingCallMissed"])
        XCTAssertEqual(pushes.last?["result"] as? String, "delivered", "the missed push's answer is recorded")
    }

    func testACallPendingAtACrashIsClosedInterruptedAtTheNextStart() async throws {
        let lab = try await startLab(wakeWindow: 30)
        try addTuple(lab, selector: "sel-crash", token: "token-crash")
        let pbx = try await pbx()
        _ = await call(pbx, lab, pushID: "pair-crash")
        _ = await lab.gateway.waitForPush("NotifyIncomingCall")
        // The pending call's record is on disk, without an outcome.
        var pending: [String: Any]?
        for _ in 0..<100 where pending == nil {
            let shown = try lab.server.cli(["calls", "show", "pair-crash", "--json"])
            if shown.status == 0 { pending = try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any] }
            if pending == nil { try await Task.sleep(for: .milliseconds(50)) }
        }
        XCTAssertTrue(pending?["outcome"] is NSNull, "\(String(describing: pending))")

        let killed = await lab.server.stop(signal: SIGKILL)
        XCTAssertEqual(killed, SIGKILL)
        let stillOpen = try lab.server.cli(["calls", "show", "pair-crash", "--json"])
        let open = try JSONSerialization.jsonObject(with: Data(stillOpen.stdout.utf8)) as? [String: Any]
        XCTAssertTrue(open?["outcome"] is NSNull, "a crash leaves the record open: \(stillOpen.stdout)")

        try await lab.server.start()
        XCTAssertTrue(lab.server.log.contains("open call records closed as interrupted"), lab.server.log)
        XCTAssertTrue(lab.server.log.contains("call_records.count=1"), lab.server.log)
        let story = try await record(lab, "pair-crash")
        XCTAssertEqual(story["outcome"] as? String, "interrupted")
        XCTAssertTrue(story["ended_at"] is String, "the record has an end time: \(story)")
    }

    func testPhoneCallsOutThroughTheOutboundProxyWithDigest() async throws {
        let pbx = try await pbx()
        let pbxURI = await pbx.contactURI
        let pbxHostPort = pbxURI.replacingOccurrences(of: "sip:pbx@", with: "")
        let lab = try await startLab(calls: "outbound_proxy = \"sip:\(pbxHostPort)\"")
        let alice = try await startPhone("alice")
        _ = await register(alice, lab)
        let outgoing = await alice.invite("sip:5551234@pbx.example.com", via: lab.registrar,
                                          user: "alice", password: "alice-secret", from: "<sip:alice@localhost>")
        let atPBX = try XCTUnwrapAsync(await pbx.waitForInvite(timeout: .seconds(5)),
                                       lab.server.log.components(separatedBy: "\n").filter { !$0.contains("ServiceLifecycle") }.suffix(30).joined(separator: "\n"))
        XCTAssertEqual(atPBX.requestURI, "sip:5551234@pbx.example.com")
        XCTAssertTrue(atPBX.headers["Record-Route"].contains { $0.contains(";swk=") }, atPBX.text)
        XCTAssertNil(atPBX.header("Proxy-Authorization").flatMap { $0.contains("nonce") ? nil : $0 })
        await pbx.respond(atPBX, status: 200)
        let answer = await alice.waitForResponse(outgoing, atLeast: 200, timeout: .seconds(5))
        XCTAssertEqual(answer?.status, 200)
        // The PBX hangs up; the BYE reaches the phone through sipwake.
        await assertHangUp(pbx, atPBX, reaches: alice, outgoing)
    }

    func testPhoneCallWithoutCredentialsIsChallenged() async throws {
        let lab = try await startLab()
        let alice = try await startPhone("alice")
        _ = await register(alice, lab)
        let outgoing = await alice.invite("sip:bob@localhost", via: lab.registrar, from: "<sip:alice@localhost>")
        let response = await alice.waitForResponse(outgoing, atLeast: 400, timeout: .seconds(5))
        XCTAssertEqual(response?.status, 407)
    }

    func testRingbackOnPushGives180BeforeAnyPhoneRings() async throws {
        let lab = try await startLab(calls: "ringback_on_push = true")
        try addTuple(lab, selector: "sel-ringback", token: "token-ringback")
        let pbx = try await pbx()
        let outgoing = await call(pbx, lab, pushID: "pair-ringback")
        let ringing = await pbx.waitForResponse(outgoing, atLeast: 180, timeout: .seconds(5))
        XCTAssertEqual(ringing?.status, 180, "ringback while the phone wakes, with no phone registered")
        await pbx.cancel(outgoing)
    }

    func testPairingIdIsANewUUIDWhenConfigured() async throws {
        let lab = try await startLab(calls: "pairing_id = \"uuid\"")
        let alice = try await startPhone("alice")
        _ = await register(alice, lab)
        let pbx = try await pbx()
        _ = await call(pbx, lab)
        let incoming = try XCTUnwrapAsync(await alice.waitForInvite(timeout: .seconds(5)))
        let pairing = try XCTUnwrap(incoming.header("X-Push-ID"))
        XCTAssertNotEqual(pairing, incoming.callID)
        XCTAssertNotNil(UUID(uuidString: pairing), pairing)
        await alice.respond(incoming, status: 486)
    }

    func testAPreloadedRouteToSipwakeIsNotForwardedToThePhone() async throws {
        let lab = try await startLab()
        let alice = try await startPhone("alice")
        _ = await register(alice, lab)
        let pbx = try await pbx()
        // A PBX with sipwake as its outbound proxy preloads a Route to it.
        _ = await pbx.invite("sip:alice@localhost", via: lab.server.proxy("udp"),
                             headers: [("Route", "<sip:127.0.0.1:\(lab.server.port);lr>")],
                             from: "<sip:1002@pbx.example.com>")
        let incoming = try XCTUnwrapAsync(await alice.waitForInvite(timeout: .seconds(5)))
        XCTAssertTrue(incoming.headers["Route"].isEmpty, "sipwake's own Route is consumed: \(incoming.headers["Route"])")
        await alice.respond(incoming, status: 486)
    }

    func testInDialogRequestsFromAPhoneOnlyReachTheDialogsPBX() async throws {
        let lab = try await startLab()
        let phone = try registerFromRawSocket(lab, instance: "44444444-4444-4444-4444-444444444444")
        let pbx = try await pbx()
        let outgoing = await call(pbx, lab, pushID: "pair-relay")
        let invite = try XCTUnwrap(phone.receive(timeout: 5))
        let lines = invite.components(separatedBy: "\r\n")
        func values(_ name: String) -> [String] {
            lines.filter { $0.lowercased().hasPrefix(name.lowercased() + ":") }
                .map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
        }
        let callID = try XCTUnwrap(values("Call-ID").first)
        let routeSet = values("Record-Route").joined(separator: ", ")
        let pbxContact = try XCTUnwrap(values("Contact").first).trimmingCharacters(in: CharacterSet(charactersIn: "<>"))
        XCTAssertTrue(routeSet.contains(";swk="), invite)
        func send(_ uri: String) -> String? {
            var text = phone.request(method: "INFO", uri: uri, extra: "Route: \(routeSet)\r\n")
            text = text.replacingOccurrences(of: #"Call-ID: [^\r]+"#, with: "Call-ID: \(callID)", options: .regularExpression)
            phone.send(text)
            // Skip the INVITE's retransmissions.
            while let answer = phone.receive(timeout: 5) {
                if answer.hasPrefix("SIP/2.0") && answer.contains(" INFO\r\n") { return answer }
            }
            return nil
        }
        // The route set is valid, but the phone names a stranger: refused.
        let stranger = try XCTUnwrap(send("sip:victim@203.0.113.9"))
        XCTAssertTrue(stranger.hasPrefix("SIP/2.0 403"), stranger)
        // Toward the dialog's PBX (a trusted peer) it is relayed: the PBX answers (it has no such dialog).
        let toPBX = try XCTUnwrap(send(pbxContact))
        XCTAssertFalse(toPBX.hasPrefix("SIP/2.0 403"), toPBX)
        await pbx.cancel(outgoing)
    }

    func testWithoutCallRecordsThePushResultStillReachesTheTuple() async throws {
        let lab = try await startLab(wakeWindow: 1, calls: "record_retention_days = 0")
        let tuple = try addTuple(lab, selector: "sel-norecords", token: "token-norecords")
        let pbx = try await pbx()
        let outgoing = await call(pbx, lab, pushID: "pair-norecords")
        _ = await pbx.waitForResponse(outgoing, atLeast: 200, timeout: .seconds(10))
        var result: String?
        for _ in 0..<50 where result == nil {
            result = try lab.tuples.get(id: tuple.id)?.lastPushResult
            if result == nil { try await Task.sleep(for: .milliseconds(100)) }
        }
        XCTAssertEqual(result, "delivered")
        let list = try lab.server.cli(["calls", "list", "--json"])
        let rows = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [Any]
        XCTAssertEqual(rows?.count, 0, "no records are kept: \(list.stdout)")
    }

    func testUserWithWakeupHoldOffFailsFastWithoutPush() async throws {
        let lab = try await startLab(wakeWindow: 20)
        try addTuple(lab, selector: "sel-nohold", token: "token-nohold")
        let hold = try lab.server.cli(["users", "hold", "alice", "off"])
        XCTAssertEqual(hold.status, 0, hold.stderr)
        // The server sees user changes within half a second.
        try await Task.sleep(for: .seconds(1))
        let (status, elapsed) = try await unansweredCall(lab, pushID: "pair-nohold", timeout: .seconds(15))
        XCTAssertEqual(status, 480)
        XCTAssertLessThan(elapsed, .seconds(10))
        XCTAssertTrue(lab.gateway.pushes("NotifyIncomingCall").isEmpty)
    }
}

/// `XCTUnwrap` for a value produced by an `await` (XCTUnwrap's autoclosure cannot await).
func XCTUnwrapAsync<T>(_ value: T?, _ message: String = "", file: StaticString = #filePath, line: UInt = #line) throws -> T {
    try XCTUnwrap(value, message, file: file, line: line)
}
