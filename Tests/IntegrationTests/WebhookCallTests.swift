import Foundation
import Model
import PushSink
import XCTest

/// Calls that wake phones through the customer's own backend, end to end on
/// loopback: a real `sipwake serve` with a `[webhook]`, the push sink in the
/// test process playing the backend (checking every signature with the
/// lab's secret), and a PBX and phones played by Sofia-SIP user agents.
/// alice has no device tuple: the webhook alone holds her calls.
final class WebhookCallTests: IntegrationTestCase {
    private var labs: [WebhookLab] = []

    struct Lab {
        let server: SipwakeProcess
        let backend: WebhookLab
        var registrar: String { server.proxy("udp") }
    }

    override func tearDown() async throws {
        try await super.tearDown()
        for lab in labs { await lab.stop() }
        labs.removeAll()
    }

    private func startLab(wakeWindow: Int = 10, timeout: Int = 2) async throws -> Lab {
        let backend = try await WebhookLab.start()
        labs.append(backend)
        let server = try await startServer(config: """
            [auth]
            trusted_peers = ["127.0.0.2"]
            [calls]
            wake_window = \(wakeWindow)
            missed_call_grace = 2
            \(backend.config(timeout: timeout))
            """)
        return Lab(server: server, backend: backend)
    }

    private func call(_ pbx: SofiaPhone, _ lab: Lab, pushID: String) async -> SofiaPhoneOutgoingCall {
        await pbx.invite("sip:alice@localhost", via: lab.server.proxy("udp"), headers: [("X-Push-ID", pushID)],
                         media: "audio", from: "\"Bob Caller\" <sip:+14155550123@pbx.example.com>")
    }

    /// The call's record once it has ended, as `sipwake calls show --json` prints it.
    private func record(_ lab: Lab, _ key: String) async throws -> [String: Any] {
        try await lab.server.endedCallRecord(key)
    }

    func testASignedWebhookAnswered200HoldsTheCallAndThePhoneRegisteringLaterIsForkedTo() async throws {
        let lab = try await startLab()
        let pbx = try await startPhone("pbx", host: "127.0.0.2")
        let outgoing = await call(pbx, lab, pushID: "pair-webhook-200")

        let received = await lab.backend.waitForRecords()
        let wakeup = try XCTUnwrap(received.first)
        XCTAssertEqual(wakeup["status"] as? Int, 200, "\(wakeup)")
        XCTAssertEqual(wakeup["signature"] as? String, "valid", "signed with the lab's secret: \(wakeup)")
        XCTAssertEqual(WebhookLab.type(wakeup), "call.mobile_push_wakeup")
        let payload = try XCTUnwrap(wakeup["payload"] as? [String: Any])
        XCTAssertEqual(payload["account_id"] as? String, "localhost")
        XCTAssertTrue((payload["id"] as? String)?.hasPrefix("evt_") == true, "\(payload)")
        let data = try XCTUnwrap(WebhookLab.data(wakeup))
        XCTAssertEqual(data["call_id"] as? String, "pair-webhook-200")
        XCTAssertEqual(data["user_id"] as? String, "alice")
        XCTAssertEqual(data["from_number"] as? String, "+14155550123")
        XCTAssertEqual(data["from_name"] as? String, "Bob Caller")
        XCTAssertEqual(data["to_number"] as? String, "alice")
        XCTAssertNotNil(data["ringing_at"] as? String)

        // Nothing is registered, yet the call waits for the backend's phone.
        let early = await pbx.waitForResponse(outgoing, atLeast: 200, timeout: .seconds(1))
        XCTAssertNil(early, "the call is held for the wake window")

        // The phone the backend woke registers and takes the INVITE paired with the event.
        let alice = try await startPhone("alice")
        let status = await alice.register(registrar: lab.registrar, user: "alice", password: "alice-secret",
                                          instanceID: nil, uriParams: nil)
        XCTAssertEqual(status, 200)
        let incoming = try XCTUnwrapAsync(await alice.waitForInvite(timeout: .seconds(5)))
        XCTAssertEqual(incoming.header("X-Push-ID"), "pair-webhook-200")
        await alice.respond(incoming, status: 200)
        let answer = await pbx.waitForResponse(outgoing, atLeast: 200, timeout: .seconds(5))
        XCTAssertEqual(answer?.status, 200)

        // The backend hears that the call was taken, and the story shows both events.
        let all = await lab.backend.waitForRecords(count: 2)
        XCTAssertEqual(all.map(WebhookLab.type), ["call.mobile_push_wakeup", "call.answered_elsewhere"], "\(all)")
        XCTAssertTrue(all.allSatisfy { $0["signature"] as? String == "valid" }, "\(all)")
        let story = try await record(lab, "pair-webhook-200")
        XCTAssertEqual(story["outcome"] as? String, "answered")
        let branches = story["branches"] as? [[String: Any]] ?? []
        XCTAssertEqual(branches.map { $0["reason"] as? String }, ["late-register"],
                       "the only branch went to the phone the backend woke, when it registered")
        let pushes = try XCTUnwrap(story["pushes"] as? [[String: Any]])
        let first = try XCTUnwrap(pushes.first)
        XCTAssertEqual(first["verb"] as? String, "call.mobile_push_wakeup")
        XCTAssertEqual(first["selector"] as? String, "webhook")
        XCTAssertEqual(first["result"] as? String, "delivered")
        XCTAssertEqual(first["http_status"] as? Int, 200)
        let text = try lab.server.cli(["calls", "show", "pair-webhook-200"])
        XCTAssertTrue(text.stdout.contains("call.mobile_push_wakeup"), text.stdout)
    }

    /// As the SIPp kit's `webhook` flow plays it: a PBX that sends no
    /// X-Push-ID, and a phone that registers with its push parameters and
    /// +sip.instance.
    func testWithoutXPushIDTheWebhookCarriesTheCallIDAsThePairingID() async throws {
        let lab = try await startLab()
        let pbx = try await startPhone("pbx", host: "127.0.0.2")
        let outgoing = await pbx.invite("sip:alice@localhost", via: lab.server.proxy("udp"),
                                        from: "\"PBX\" <sip:1000@pbx.example.com>")

        let received = await lab.backend.waitForRecords()
        let wakeup = try XCTUnwrap(received.first)
        XCTAssertEqual(wakeup["signature"] as? String, "valid", "\(wakeup)")
        let data = try XCTUnwrap(WebhookLab.data(wakeup))
        let pairing = try XCTUnwrap(data["call_id"] as? String)
        XCTAssertEqual(data["from_number"] as? String, "1000", "not E.164: the From user as it is")
        XCTAssertEqual(data["from_name"] as? String, "PBX")

        let alice = try await startPhone("alice")
        let status = await alice.register(registrar: lab.registrar, user: "alice", password: "alice-secret",
                                          instanceID: "00000000-0000-0000-0000-0000000000a1",
                                          uriParams: ";pn-provider=acrobits;pn-prid=tok-a")
        XCTAssertEqual(status, 200)
        let incoming = try XCTUnwrapAsync(await alice.waitForInvite(timeout: .seconds(5)))
        XCTAssertEqual(incoming.callID, pairing, "the pairing id is the PBX's Call-ID")
        XCTAssertEqual(incoming.header("X-Push-ID"), pairing)
        await alice.respond(incoming, status: 200)
        let answer = await pbx.waitForResponse(outgoing, atLeast: 200, timeout: .seconds(5))
        XCTAssertEqual(answer?.status, 200)

        let story = try await record(lab, pairing)
        XCTAssertEqual(story["outcome"] as? String, "answered")
        XCTAssertEqual(story["pairing_id"] as? String, pairing)
        let branches = story["branches"] as? [[String: Any]] ?? []
        XCTAssertEqual(branches.map { $0["reason"] as? String }, ["late-register"])
        let first = try XCTUnwrap((story["pushes"] as? [[String: Any]])?.first)
        XCTAssertEqual(first["verb"] as? String, "call.mobile_push_wakeup")
        XCTAssertEqual(first["selector"] as? String, "webhook")
        XCTAssertEqual(first["result"] as? String, "delivered")
    }

    func testAWebhookAnswered404EndsTheCallAtOnceWith480() async throws {
        let lab = try await startLab(wakeWindow: 20)
        lab.backend.sink.setRule(.gone, forToken: "alice")
        let pbx = try await startPhone("pbx", host: "127.0.0.2")
        let started = ContinuousClock.now
        let outgoing = await call(pbx, lab, pushID: "pair-webhook-404")
        // The backend knows no device of alice and nothing is registered: the PBX routes on now, not after 20 s.
        let final = await pbx.waitForResponse(outgoing, atLeast: 200, timeout: .seconds(10))
        XCTAssertEqual(final?.status, 480)
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(5))
        let received = lab.backend.records()
        XCTAssertEqual(received.count, 1, "no retry and no end event for a backend without devices: \(received)")
        XCTAssertEqual(received.first?["status"] as? Int, 404)
        XCTAssertEqual(received.first?["signature"] as? String, "valid", "\(received)")
        let story = try await record(lab, "pair-webhook-404")
        XCTAssertEqual(story["outcome"] as? String, "no-devices")
        let push = try XCTUnwrap((story["pushes"] as? [[String: Any]])?.first)
        XCTAssertEqual(push["result"] as? String, "token-gone")
        XCTAssertEqual(push["http_status"] as? Int, 404)
        XCTAssertTrue((push["detail"] as? String)?.hasPrefix("no device for this user") == true, "\(push)")
    }

    func testAWebhookAnswered500IsRetriedOnceThenTheCallEnds() async throws {
        let lab = try await startLab(wakeWindow: 20)
        lab.backend.sink.setRule(.fail(status: 500), forToken: "alice")
        let pbx = try await startPhone("pbx", host: "127.0.0.2")
        let outgoing = await call(pbx, lab, pushID: "pair-webhook-500")
        let received = await lab.backend.waitForRecords(count: 2)
        XCTAssertEqual(received.map { $0["status"] as? Int }, [500, 500], "\(received)")
        XCTAssertEqual(received.map(WebhookLab.type), ["call.mobile_push_wakeup", "call.mobile_push_wakeup"])
        XCTAssertEqual(Set(received.compactMap { ($0["payload"] as? [String: Any])?["id"] as? String }).count, 1,
                       "the retry carries the same event id")
        // Both tries failed and nothing is registered: a failed push, and the PBX routes on.
        let final = await pbx.waitForResponse(outgoing, atLeast: 200, timeout: .seconds(10))
        XCTAssertEqual(final?.status, 480)
        let story = try await record(lab, "pair-webhook-500")
        let pushes = try XCTUnwrap(story["pushes"] as? [[String: Any]])
        XCTAssertEqual(pushes.map { $0["attempt"] as? Int }, [1, 2])
        XCTAssertEqual(pushes.map { $0["result"] as? String }, ["retryable", "retryable"])
        XCTAssertTrue(lab.server.log.contains("push failed"), "a failed webhook is logged at warning")
        XCTAssertFalse(lab.server.log.contains(WebhookLab.secret), "the secret is never logged")
    }

    func testASlowWebhookTimesOutIsRetriedAndNeverDelaysTheForks() async throws {
        let lab = try await startLab(timeout: 1)
        lab.backend.sink.setRule(.slow(milliseconds: 2500), forToken: "alice")
        let alice = try await startPhone("alice")
        let status = await alice.register(registrar: lab.registrar, user: "alice", password: "alice-secret",
                                          instanceID: nil, uriParams: nil)
        XCTAssertEqual(status, 200)
        let pbx = try await startPhone("pbx", host: "127.0.0.2")
        let outgoing = await call(pbx, lab, pushID: "pair-webhook-slow")
        let incoming = try XCTUnwrapAsync(await alice.waitForInvite(timeout: .seconds(3)))
        XCTAssertEqual(incoming.header("X-Push-ID"), "pair-webhook-slow")
        // The backend got the event, and its late answer was given up on and retried.
        let received = await lab.backend.waitForRecords(count: 2, timeout: .seconds(6))
        XCTAssertEqual(received.count, 2, "\(received)")
        await alice.respond(incoming, status: 200)
        let answer = await pbx.waitForResponse(outgoing, atLeast: 200, timeout: .seconds(5))
        XCTAssertEqual(answer?.status, 200)
        let story = try await record(lab, "pair-webhook-slow")
        let first = try XCTUnwrap((story["pushes"] as? [[String: Any]])?.first)
        XCTAssertEqual(first["result"] as? String, "retryable")
        XCTAssertTrue((first["detail"] as? String)?.hasPrefix("timeout") == true, "\(first)")
    }

    func testABackendWithTheWrongSecretRefusesTheSignature() async throws {
        let backend = try await WebhookLab.start()
        labs.append(backend)
        let other = "another-secret-0123456789abcdef0123456789"
        let server = try await startServer(config: """
            [auth]
            trusted_peers = ["127.0.0.2"]
            [calls]
            wake_window = 10
            \(backend.config(secrets: [other]))
            """)
        let lab = Lab(server: server, backend: backend)
        let pbx = try await startPhone("pbx", host: "127.0.0.2")
        let outgoing = await call(pbx, lab, pushID: "pair-webhook-401")
        let final = await pbx.waitForResponse(outgoing, atLeast: 200, timeout: .seconds(10))
        XCTAssertEqual(final?.status, 480, "a refused webhook is a failed push: nothing to wait for")
        let received = backend.records()
        XCTAssertEqual(received.first?["status"] as? Int, 401)
        XCTAssertEqual(received.first?["signature"] as? String, "invalid")
    }

    func testSecretsRotateWithTwoValidAtOnce() async throws {
        let backend = try await WebhookLab.start()
        labs.append(backend)
        // The backend still holds the previous secret; sipwake signs with the new one and the previous one.
        let new = "brand-new-secret-0123456789abcdef012345"
        let server = try await startServer(config: """
            [auth]
            trusted_peers = ["127.0.0.2"]
            [calls]
            wake_window = 10
            \(backend.config(secrets: [new, WebhookLab.secret]))
            """)
        let lab = Lab(server: server, backend: backend)
        let pbx = try await startPhone("pbx", host: "127.0.0.2")
        _ = await call(pbx, lab, pushID: "pair-webhook-rotate")
        let received = await backend.waitForRecords()
        XCTAssertEqual(received.first?["signature"] as? String, "valid", "\(received)")
        XCTAssertEqual(received.first?["status"] as? Int, 200)
    }
}
