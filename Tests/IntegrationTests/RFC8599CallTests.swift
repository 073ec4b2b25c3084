import Foundation
import Model
import SQLiteStorage
import TestSupport
import XCTest

/// Standard SIP phones that put their push details in the REGISTER (RFC
/// 8599), end to end on loopback: a real `sipwake serve` with an iOS app on
/// APNs and an Android app on FCM, the push sink playing Apple and Google
/// over HTTPS with the lab's keys, and the phones and the PBX played by
/// Sofia-SIP user agents.
final class RFC8599CallTests: DirectPushTestCase {
    struct Lab {
        let server: SipwakeProcess
        let push: DirectPushLab
        let tuples: TupleStore
        let bindings: BindingStore
        var registrar: String { server.proxy("udp") }
    }

    /// `registrar`: more `[registrar]` lines (short expiries, refresh pushes).
    private func startLab(registrar: String = "pn_refresh_before = 0", androidKeys: String = "") async throws -> Lab {
        let push = try await startPushLab()
        let server = try await startServer(config: """
            [auth]
            trusted_peers = ["127.0.0.2"]
            [registrar]
            min_expires = 1
            \(registrar)
            [calls]
            wake_window = 10
            missed_call_grace = 2
            \(push.config(androidKeys: androidKeys))
            """)
        let database = try SipwakeDatabase(path: server.directory.appendingPathComponent("sipwake.sqlite").path)
        return Lab(server: server, push: push, tuples: TupleStore(database: database),
                   bindings: BindingStore(database: database))
    }

    static let androidInstance = "urn:uuid:8599a000-0000-4000-8000-000000000001"
    static let iphoneInstance = "urn:uuid:8599b000-0000-4000-8000-000000000002"

    /// An Android phone's Contact parameters: Firebase project and token.
    static func androidParams(token: String = "fcm-8599-token") -> String {
        ";pn-provider=fcm;pn-param=\(PushLabKeys.projectID);pn-prid=\(token)"
    }

    /// A Linphone iPhone's: team, bundle and both services, the VoIP and the alert token.
    static func iphoneParams(voip: String = "voip-8599", alert: String = "alert-8599") -> String {
        ";pn-provider=apns;pn-param=\(DirectPushLab.teamID).\(DirectPushLab.iosAppID).voip&remote"
            + ";pn-prid=\(voip):voip&\(alert):remote"
    }

    /// One REGISTER that is never refreshed (the app went to sleep).
    private func registerOnce(_ lab: Lab, user: String = "alice", params: String, instance: String,
                              expires: Int) async throws -> TestResponse {
        let ua = try await makeUA(lab.server)
        return await ua.register(user: user, password: "\(user)-secret",
                                 contacts: ["<sip:alice@127.0.0.1:45999\(params)>;+sip.instance=\"<\(instance)>\""],
                                 expires: expires)
    }

    private func waitUntilLapsed(_ lab: Lab) async throws {
        for _ in 0..<100 {
            if try lab.bindings.loadAll().filter({ $0.aor == "alice" }).isEmpty { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        XCTFail("alice's binding never lapsed")
    }

    private static func fcmData(_ record: [String: Any]?) -> [String: Any]? {
        ((record?["payload"] as? [String: Any])?["message"] as? [String: Any])?["data"] as? [String: Any]
    }

    private static func header(_ record: [String: Any], _ name: String) -> String? {
        let headers = record["headers"] as? [String: String] ?? [:]
        return headers.first { $0.key.lowercased() == name }?.value
    }

    /// `name="value"` of a Feature-Caps header.
    private static func capability(_ caps: String?, _ name: String) -> String? {
        guard let caps else { return nil }
        for part in caps.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces) == name else { continue }
            return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
        }
        return nil
    }

    // MARK: A sleeping Android phone

    func testAPhoneWhoseBindingLapsedIsPushedOnACallAndAnswersWhenItRegistersAgain() async throws {
        let lab = try await startLab(registrar: "")
        let first = try await registerOnce(lab, params: Self.androidParams(), instance: Self.androidInstance, expires: 2)
        XCTAssertEqual(first.status, 200, first.text)
        let caps = first.header("Feature-Caps")
        XCTAssertEqual(Self.capability(caps, "+sip.pns"), "fcm", first.text)
        let purr = try XCTUnwrap(Self.capability(caps, "+sip.pnspurr"), first.text)
        XCTAssertEqual(Self.capability(caps, "+sip.pnsreg"), "1", "a 2 s registration is refreshed halfway: \(first.text)")

        // The REGISTER made the device a push target of alice, one tuple keyed by its instance.
        let tuples = try lab.tuples.list(username: "alice", limit: 10, offset: 0)
        XCTAssertEqual(tuples.count, 1, "\(tuples)")
        let tuple = try XCTUnwrap(tuples.first)
        XCTAssertEqual(tuple.selector, "rfc8599:alice:<\(Self.androidInstance)>")
        XCTAssertEqual(tuple.provider, "fcm")
        XCTAssertEqual(tuple.appIDCalls, DirectPushLab.androidAppID)
        XCTAssertEqual(tuple.tokenCalls, "fcm-8599-token")
        XCTAssertEqual(tuple.platform, .android)

        // The app sleeps through its refresh push: its binding lapses, the push target stays.
        let refresh = await lab.push.waitForRecords("fcm", token: "fcm-8599-token")
        XCTAssertEqual(Self.fcmData(refresh.first)?["type"] as? String, "binding-refresh", "\(refresh)")
        XCTAssertEqual(Self.fcmData(refresh.first)?["pn-purr"] as? String, purr)
        try await waitUntilLapsed(lab)
        XCTAssertEqual(try lab.tuples.count(username: "alice"), 1)
        let refreshes = lab.push.records("fcm", token: "fcm-8599-token").count

        let pbx = try await startPhone("pbx", host: "127.0.0.2")
        let outgoing = await pbx.invite("sip:alice@localhost", via: lab.server.proxy("udp"),
                                        headers: [("X-Push-ID", "pair-8599-fcm")], media: "audio",
                                        from: "\"Bob Caller\" <sip:+14155550123@pbx.example.com>")
        let pushed = await lab.push.waitForRecords("fcm", token: "fcm-8599-token", count: refreshes + 1)
        let data = try XCTUnwrap(Self.fcmData(pushed.last), "\(pushed)")
        XCTAssertEqual(data["messageType"] as? String, "incomingCall")
        XCTAssertTrue((data["incomingCall"] as? String)?.contains("pair-8599-fcm") == true, "\(data)")
        let early = await pbx.waitForResponse(outgoing, atLeast: 200, timeout: .milliseconds(500))
        XCTAssertNil(early, "the call waits for the pushed phone")

        // The woken phone registers again, with the same push details, and takes the call.
        let alice = try await startPhone("alice")
        let status = await alice.register(registrar: lab.registrar, user: "alice", password: "alice-secret",
                                          instanceID: Self.androidInstance, uriParams: Self.androidParams())
        XCTAssertEqual(status, 200)
        let incoming = try XCTUnwrapAsync(await alice.waitForInvite(timeout: .seconds(5)))
        XCTAssertEqual(incoming.header("X-Push-ID"), "pair-8599-fcm")
        await alice.respond(incoming, status: 200)
        let answer = await pbx.waitForResponse(outgoing, atLeast: 200, timeout: .seconds(5))
        XCTAssertEqual(answer?.status, 200)
        XCTAssertEqual(try lab.tuples.count(username: "alice"), 1, "one device, not two")

        // The answering phone is not told the call was answered elsewhere: it is that device.
        let story = try await lab.server.endedCallRecord("pair-8599-fcm")
        let pushes = story["pushes"] as? [[String: Any]] ?? []
        XCTAssertFalse(pushes.contains { $0["verb"] as? String == PushEvent.answeredElsewhere.recordName }, "\(pushes)")
    }

    // MARK: A Linphone iPhone and its refresh pushes

    func testAnIPhoneGetsItsRefreshPushOnTheAlertTokenAgainWhenItStaysAsleepAndKeepsItsPushTarget() async throws {
        let lab = try await startLab(registrar: "pn_refresh_before = 4\npn_refresh_retries = 1")
        let response = try await registerOnce(lab, params: Self.iphoneParams(), instance: Self.iphoneInstance, expires: 10)
        XCTAssertEqual(response.status, 200, response.text)
        let caps = response.header("Feature-Caps")
        XCTAssertEqual(Self.capability(caps, "+sip.pns"), "apns")
        XCTAssertEqual(Self.capability(caps, "+sip.pnsreg"), "4")
        let purr = try XCTUnwrap(Self.capability(caps, "+sip.pnspurr"), response.text)

        let tuple = try XCTUnwrap(try lab.tuples.list(username: "alice", limit: 10, offset: 0).first)
        XCTAssertEqual(tuple.tokenCalls, "voip-8599")
        XCTAssertEqual(tuple.tokenOther, "alert-8599")
        XCTAssertEqual(tuple.provider, "apns")

        // Four seconds before expiry, then once more: a silent push to the
        // alert token carrying the PRID-URR, never anything to the VoIP token.
        let refreshes = await lab.push.waitForRecords("apns", token: "alert-8599", count: 2)
        XCTAssertEqual(refreshes.count, 2, "\(refreshes)")
        for refresh in refreshes {
            XCTAssertEqual(Self.header(refresh, "apns-push-type"), "background", "\(refresh)")
            XCTAssertEqual(Self.header(refresh, "apns-topic"), DirectPushLab.iosAppID)
            XCTAssertEqual((refresh["payload"] as? [String: Any])?["pn-purr"] as? String, purr, "\(refresh)")
        }
        XCTAssertTrue(lab.push.records("apns", token: "voip-8599").isEmpty)

        // It never re-registered: the binding lapses, the push target stays for calls.
        try await waitUntilLapsed(lab)
        XCTAssertEqual(try lab.tuples.count(username: "alice"), 1)
        var warned = false
        for _ in 0..<50 where !warned {
            warned = lab.server.log.contains("binding expired although refresh pushes were sent")
            if !warned { try await Task.sleep(for: .milliseconds(100)) }
        }
        XCTAssertTrue(warned, "the unanswered refresh is a warning")
        let pbx = try await startPhone("pbx", host: "127.0.0.2")
        _ = await pbx.invite("sip:alice@localhost", via: lab.server.proxy("udp"),
                             headers: [("X-Push-ID", "pair-8599-apns")], media: "audio")
        let voip = await lab.push.waitForRecords("apns", token: "voip-8599")
        XCTAssertEqual(voip.first.flatMap { Self.header($0, "apns-push-type") }, "voip", "\(voip)")
    }

    func testARestartKeepsTheRefreshPushesOfTheRegisteredPhones() async throws {
        let lab = try await startLab(registrar: "pn_refresh_before = 6\npn_refresh_retries = 0")
        let response = try await registerOnce(lab, params: Self.androidParams(), instance: Self.androidInstance, expires: 14)
        XCTAssertEqual(Self.capability(response.header("Feature-Caps"), "+sip.pnsreg"), "6", response.text)
        // sipwake restarts well before the push is due (8 s after the REGISTER).
        let exit = await lab.server.stop()
        XCTAssertEqual(exit, 0)
        try await lab.server.start()
        let refresh = await lab.push.waitForRecords("fcm", token: "fcm-8599-token", timeout: .seconds(15))
        XCTAssertEqual(Self.fcmData(refresh.first)?["type"] as? String, "binding-refresh", "\(refresh)")
    }

    func testARefreshAnsweredByARegistrationCarryingThePURRIsNotSentAgain() async throws {
        let lab = try await startLab(registrar: "pn_refresh_before = 8\npn_refresh_retries = 1")
        let response = try await registerOnce(lab, params: Self.androidParams(), instance: Self.androidInstance, expires: 16)
        let purr = try XCTUnwrap(Self.capability(response.header("Feature-Caps"), "+sip.pnspurr"), response.text)
        let first = await lab.push.waitForRecords("fcm", token: "fcm-8599-token")
        XCTAssertEqual(Self.fcmData(first.first)?["pn-purr"] as? String, purr, "\(first)")

        // The woken phone registers with the PRID-URR of the push (§4.1.2), for an hour.
        let again = try await registerOnce(lab, params: Self.androidParams() + ";pn-purr=\(purr)",
                                           instance: Self.androidInstance, expires: 3600)
        XCTAssertEqual(again.status, 200)
        XCTAssertEqual(Self.capability(again.header("Feature-Caps"), "+sip.pnspurr"), purr, "the device keeps its PRID-URR")
        // The retry would have left 4 s after the first push.
        try await Task.sleep(for: .seconds(5))
        XCTAssertEqual(lab.push.records("fcm", token: "fcm-8599-token").count, 1)
    }

    // MARK: Unknown services and leaving

    func testAnUnknownPushServiceIsAnswered555AndNothingIsStored() async throws {
        let lab = try await startLab()
        let phone = try await startPhone("alice")
        let status = await phone.register(registrar: lab.registrar, user: "alice", password: "alice-secret",
                                          instanceID: Self.androidInstance,
                                          uriParams: ";pn-provider=nosuch;pn-param=x;pn-prid=tok")
        XCTAssertEqual(status, 555)
        let responses = await phone.registerResponses()
        let response = try XCTUnwrap(responses.last)
        XCTAssertEqual(response.reason, "Push Notification Service Not Supported")
        XCTAssertEqual(Self.capability(response.header("Feature-Caps"), "+sip.pns"), "apns,fcm", response.text)

        // An app nobody configured, on a known service, is just as unsupported.
        let wrongProject = try await registerOnce(lab, params: ";pn-provider=fcm;pn-param=other-project;pn-prid=tok",
                                                  instance: Self.androidInstance, expires: 600)
        XCTAssertEqual(wrongProject.status, 555, wrongProject.text)
        // A token that unescapes to a line break (it would end up in logs and tuples) is refused.
        let injected = try await registerOnce(lab, params: ";pn-provider=fcm;pn-prid=tok%0D%0AVia:%20x",
                                              instance: Self.androidInstance, expires: 600)
        XCTAssertEqual(injected.status, 400, injected.text)
        XCTAssertEqual(try lab.tuples.count(username: "alice"), 0)
        XCTAssertTrue(try lab.bindings.loadAll().isEmpty, "a refused REGISTER binds nothing")
    }

    func testUnregisteringRemovesThePushTarget() async throws {
        let lab = try await startLab()
        let ua = try await makeUA(lab.server)
        let contact = "<sip:alice@127.0.0.1:45999\(Self.androidParams())>;+sip.instance=\"<\(Self.androidInstance)>\""
        let callID = UUID().uuidString
        let registered = await ua.register(user: "alice", password: "alice-secret", contacts: [contact], expires: 600,
                                           callID: callID, cseq: 1)
        XCTAssertEqual(registered.status, 200)
        XCTAssertEqual(try lab.tuples.count(username: "alice"), 1)
        let left = await ua.register(user: "alice", password: "alice-secret", contacts: [contact], expires: 0,
                                     callID: callID, cseq: 10)
        XCTAssertEqual(left.status, 200)
        XCTAssertEqual(try lab.tuples.count(username: "alice"), 0, "the user logged out of this phone")

        // Unregistering by instance id alone, without the push parameters, removes it too.
        let again = await ua.register(user: "alice", password: "alice-secret", contacts: [contact], expires: 600,
                                      callID: callID, cseq: 20)
        XCTAssertEqual(again.status, 200)
        XCTAssertEqual(try lab.tuples.count(username: "alice"), 1)
        let bare = "<sip:alice@127.0.0.1:45999>;+sip.instance=\"<\(Self.androidInstance)>\""
        let gone = await ua.register(user: "alice", password: "alice-secret", contacts: [bare], expires: 0,
                                     callID: callID, cseq: 30)
        XCTAssertEqual(gone.status, 200)
        XCTAssertEqual(try lab.tuples.count(username: "alice"), 0)
        XCTAssertTrue(try lab.bindings.loadAll().isEmpty)
    }

    func testTwoAccountsOnOnePhoneKeepAPushTargetEach() async throws {
        let lab = try await startLab()
        // One instance, one token, two accounts (Linphone registers each account with both).
        for user in ["alice", "bob", "alice"] {
            let response = try await registerOnce(lab, user: user, params: Self.androidParams(),
                                                  instance: Self.androidInstance, expires: 600)
            XCTAssertEqual(response.status, 200, response.text)
        }
        XCTAssertEqual(try lab.tuples.count(username: "alice"), 1)
        XCTAssertEqual(try lab.tuples.count(username: "bob"), 1, "alice's REGISTER does not take bob's push target")
    }
}
