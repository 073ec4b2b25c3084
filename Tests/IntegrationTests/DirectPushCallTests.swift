import Foundation
import Model
import SQLiteStorage
import TestSupport
import XCTest

/// Calls that wake apps through APNs and FCM directly, end to end on
/// loopback: a real `sipwake serve` with an iOS app on APNs and an Android
/// app on FCM, the push sink playing Apple's and Google's services over
/// HTTPS (HTTP/2) with the lab's keys, and a PBX and phones played by
/// Sofia-SIP user agents.
final class DirectPushCallTests: DirectPushTestCase {
    struct Lab {
        let server: SipwakeProcess
        let push: DirectPushLab
        let tuples: TupleStore
        var registrar: String { server.proxy("udp") }
    }

    /// `serviceAccountKey`: a PEM key the FCM app's service account signs
    /// with instead of the one Google (the sink) knows.
    /// `iosKeys`, `androidKeys`: more lines of each app's `[apps.*]` table.
    private func startLab(expireProviderTokens: Int = 0, iosFormat: String = "incoming-call-event",
                          wakeWindow: Int = 10, serviceAccountKey: String? = nil, iosKeys: String = "",
                          androidKeys: String = "") async throws -> Lab {
        let push = try await startPushLab(expireProviderTokens: expireProviderTokens)
        var pushConfig = push.config(iosFormat: iosFormat, iosKeys: iosKeys, androidKeys: androidKeys)
        if let serviceAccountKey {
            let data = try Data(contentsOf: URL(fileURLWithPath: push.serviceAccount))
            var account = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: String])
            account["private_key"] = try push.keys.text(serviceAccountKey)
            let path = push.keys.directory.appendingPathComponent("unknown-account.json").path
            try JSONSerialization.data(withJSONObject: account).write(to: URL(fileURLWithPath: path))
            pushConfig = pushConfig.replacingOccurrences(of: push.serviceAccount, with: path)
        }
        let server = try await startServer(config: """
            [auth]
            trusted_peers = ["127.0.0.2"]
            [calls]
            wake_window = \(wakeWindow)
            missed_call_grace = 2
            \(pushConfig)
            """)
        let database = try SipwakeDatabase(path: server.directory.appendingPathComponent("sipwake.sqlite").path)
        return Lab(server: server, push: push, tuples: TupleStore(database: database))
    }

    /// An iPhone: a VoIP token for calls, an alert token for the rest.
    @discardableResult
    private func addIPhone(_ lab: Lab, user: String = "alice", selector: String = "sel-iphone",
                           voip: String = "apns-voip-1", alert: String = "apns-alert-1") throws -> DeviceTuple {
        try lab.tuples.report(username: user, selector: selector, appIDCalls: DirectPushLab.iosAppID, tokenCalls: voip,
                              appIDOther: DirectPushLab.iosAppID, tokenOther: alert, platform: .ios,
                              provider: "apns").tuple
    }

    /// An Android phone: one FCM token for everything.
    @discardableResult
    private func addAndroid(_ lab: Lab, token: String = "fcm-token-1") throws -> DeviceTuple {
        try lab.tuples.report(username: "alice", selector: "sel-android", appIDCalls: DirectPushLab.androidAppID,
                              tokenCalls: token, appIDOther: DirectPushLab.androidAppID, tokenOther: token,
                              platform: .android, provider: "fcm").tuple
    }

    private func pbx() async throws -> SofiaPhone {
        try await startPhone("pbx", host: "127.0.0.2")
    }

    private func call(_ pbx: SofiaPhone, _ lab: Lab, user: String = "alice", pushID: String) async -> SofiaPhoneOutgoingCall {
        await pbx.invite("sip:\(user)@localhost", via: lab.server.proxy("udp"), headers: [("X-Push-ID", pushID)],
                         media: "audio", from: "\"Bob Caller\" <sip:+14155550123@pbx.example.com>")
    }

    private static func header(_ record: [String: Any], _ name: String) -> String? {
        let headers = record["headers"] as? [String: String] ?? [:]
        return headers.first { $0.key.lowercased() == name }?.value
    }

    private static func object(_ text: String?) -> [String: Any]? {
        guard let text else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    }

    /// Waits for the tuple to be deleted; whether it was.
    private func waitUntilDeleted(_ lab: Lab, _ id: Int64) async throws -> Bool {
        for _ in 0..<100 {
            if try lab.tuples.get(id: id) == nil { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    // MARK: Both providers wake their apps

    func testACallWakesTheAPNsAppAndTheFCMAppWithTheirHeadersAndPayloads() async throws {
        let lab = try await startLab()
        try addIPhone(lab)
        try addAndroid(lab)
        let pbx = try await pbx()
        let outgoing = await call(pbx, lab, pushID: "pair-direct-1")

        // APNs: a VoIP push to the app's .voip topic, now, expiring with the call.
        let apnsRecords = await lab.push.waitForRecords("apns", token: "apns-voip-1")
        let apns = try XCTUnwrap(apnsRecords.first)
        XCTAssertEqual(apns["status"] as? Int, 200, "\(apns)")
        XCTAssertEqual(Self.header(apns, "apns-push-type"), "voip")
        XCTAssertEqual(Self.header(apns, "apns-topic"), "com.example.phone.voip")
        XCTAssertEqual(Self.header(apns, "apns-priority"), "10")
        let expiration = try XCTUnwrap(Self.header(apns, "apns-expiration").flatMap(Int.init))
        let now = Int(Date().timeIntervalSince1970)
        XCTAssertTrue((now + 20...now + 35).contains(expiration), "expires about 30 s ahead: \(expiration) vs \(now)")
        XCTAssertEqual(apns["jwtKid"] as? String, DirectPushLab.keyID)
        XCTAssertEqual(apns["jwtIss"] as? String, DirectPushLab.teamID)
        let event = try XCTUnwrap((apns["payload"] as? [String: Any])?["incomingCall"] as? [String: Any])
        XCTAssertEqual(event["serverCallId"] as? String, "pair-direct-1")
        XCTAssertEqual(event["hasVideo"] as? Bool, false)
        XCTAssertNotNil(UUID(uuidString: event["eventId"] as? String ?? ""))
        let caller = try XCTUnwrap(event["caller"] as? [String: Any])
        XCTAssertEqual(caller["displayName"] as? String, "Bob Caller")
        XCTAssertEqual(caller["phoneNumber"] as? String, "+14155550123")

        // FCM: an access token first, then a high-priority data message living 30 s.
        let grants = await lab.push.waitForRecords("oauth")
        XCTAssertEqual(grants.first?["status"] as? Int, 200)
        let fcmRecords = await lab.push.waitForRecords("fcm", token: "fcm-token-1")
        let fcm = try XCTUnwrap(fcmRecords.first)
        XCTAssertEqual(fcm["status"] as? Int, 200, "\(fcm)")
        let message = try XCTUnwrap((fcm["payload"] as? [String: Any])?["message"] as? [String: Any])
        let android = try XCTUnwrap(message["android"] as? [String: Any])
        XCTAssertEqual((android["priority"] as? String)?.lowercased(), "high")
        XCTAssertEqual(android["ttl"] as? String, "30s")
        let data = try XCTUnwrap(message["data"] as? [String: Any])
        XCTAssertTrue(data.values.allSatisfy { $0 is String }, "FCM data values are strings: \(data)")
        XCTAssertEqual(data["messageType"] as? String, "incomingCall")
        let inner = try XCTUnwrap(Self.object(data["incomingCall"] as? String))
        XCTAssertEqual(inner["serverCallId"] as? String, "pair-direct-1")

        // The iPhone wakes, registers and takes the INVITE paired with the push.
        let alice = try await startPhone("alice")
        let status = await alice.register(registrar: lab.registrar, user: "alice", password: "alice-secret",
                                          instanceID: nil, uriParams: ";pn-provider=apns;pn-prid=apns-voip-1")
        XCTAssertEqual(status, 200)
        let incoming = try XCTUnwrapAsync(await alice.waitForInvite(timeout: .seconds(5)))
        XCTAssertEqual(incoming.header("X-Push-ID"), "pair-direct-1")
        await alice.respond(incoming, status: 200)
        let answer = await pbx.waitForResponse(outgoing, atLeast: 200, timeout: .seconds(5))
        XCTAssertEqual(answer?.status, 200)

        // The Android phone, which never registered, is told the call was
        // answered elsewhere on its FCM token, with the same pairing id.
        let ended = await lab.push.waitForRecords("fcm", token: "fcm-token-1", count: 2)
        let endData = ((ended.last?["payload"] as? [String: Any])?["message"] as? [String: Any])?["data"] as? [String: Any]
        XCTAssertEqual(endData?["messageType"] as? String, "callEnded", "\(ended)")
        XCTAssertEqual(Self.object(endData?["callEnded"] as? String)?["serverCallId"] as? String, "pair-direct-1")
    }

    func testGoneTokensAreDeletedOnBothProviders() async throws {
        let lab = try await startLab(wakeWindow: 20)
        let iphone = try addIPhone(lab, voip: "apns-gone")
        let android = try addAndroid(lab, token: "fcm-gone")
        lab.push.sink.setRule(.gone, forToken: "apns-gone")
        lab.push.sink.setRule(.gone, forToken: "fcm-gone")
        let pbx = try await pbx()
        let outgoing = await call(pbx, lab, pushID: "pair-gone")
        // Nothing registered and no device left to wake: the PBX hears at once, not after 20 s.
        let final = await pbx.waitForResponse(outgoing, atLeast: 200, timeout: .seconds(10))
        XCTAssertEqual(final?.status, 480)
        let deletedIPhone = try await waitUntilDeleted(lab, iphone.id)
        let deletedAndroid = try await waitUntilDeleted(lab, android.id)
        XCTAssertTrue(deletedIPhone, "410 Unregistered deletes the APNs tuple")
        XCTAssertTrue(deletedAndroid, "404 UNREGISTERED deletes the FCM tuple")
        XCTAssertEqual(lab.push.records("apns", token: "apns-gone").first?["reason"] as? String, "Unregistered")
        XCTAssertEqual(lab.push.records("fcm", token: "fcm-gone").first?["reason"] as? String, "UNREGISTERED")
    }

    func testAnExpiredProviderTokenIsRenewedAndThePushRetried() async throws {
        let lab = try await startLab(expireProviderTokens: 1)
        try addIPhone(lab)
        let pbx = try await pbx()
        _ = await call(pbx, lab, pushID: "pair-expired")
        let records = await lab.push.waitForRecords("apns", token: "apns-voip-1", count: 2)
        XCTAssertEqual(records.map { $0["status"] as? Int }, [403, 200], "\(records)")
        XCTAssertEqual(records.first?["reason"] as? String, "ExpiredProviderToken")
        // The sink refuses a JWT it called expired for good: the 200 proves a new one was signed.
    }

    func testASlowProviderNeverDelaysTheForks() async throws {
        let lab = try await startLab()
        try addIPhone(lab)
        lab.push.sink.setRule(.slow(milliseconds: 4000), forToken: "apns-voip-1")
        let alice = try await startPhone("alice")
        let status = await alice.register(registrar: lab.registrar, user: "alice", password: "alice-secret",
                                          instanceID: nil, uriParams: nil)
        XCTAssertEqual(status, 200)
        let pbx = try await pbx()
        let outgoing = await call(pbx, lab, pushID: "pair-slow")
        let incoming = try XCTUnwrapAsync(await alice.waitForInvite(timeout: .seconds(3)))
        XCTAssertEqual(incoming.header("X-Push-ID"), "pair-slow")
        XCTAssertTrue(lab.push.records("apns").isEmpty, "the INVITE went out while APNs was still answering")
        await alice.respond(incoming, status: 200)
        let answer = await pbx.waitForResponse(outgoing, atLeast: 200, timeout: .seconds(5))
        XCTAssertEqual(answer?.status, 200)
    }

    func testTwoAccountsOnOneDeviceAreEachPushedWithTheirSelector() async throws {
        let lab = try await startLab(iosFormat: "acrobits")
        // One iPhone, one app token, two accounts in two slots.
        try addIPhone(lab, user: "alice", selector: "device-1:alice-slot", voip: "shared-voip", alert: "shared-alert")
        try addIPhone(lab, user: "bob", selector: "device-1:bob-slot", voip: "shared-voip", alert: "shared-alert")
        XCTAssertEqual(try lab.tuples.count(username: nil), 2, "both accounts are kept")
        let pbx = try await pbx()
        _ = await call(pbx, lab, user: "alice", pushID: "pair-alice")
        _ = await call(pbx, lab, user: "bob", pushID: "pair-bob")
        let records = await lab.push.waitForRecords("apns", token: "shared-voip", count: 2)
        let pushed = records.compactMap { record -> String? in
            guard let payload = record["payload"] as? [String: Any], let id = payload["Id"] as? String,
                  let selector = payload["Selector"] as? String else { return nil }
            return "\(id) \(selector)"
        }
        XCTAssertEqual(Set(pushed), ["pair-alice device-1:alice-slot", "pair-bob device-1:bob-slot"], "\(records)")
    }

    // MARK: End-of-call notifications

    /// The call's record from `sipwake calls show --json`, once it has ended.
    private func record(_ lab: Lab, _ key: String) async throws -> [String: Any] {
        try await lab.server.endedCallRecord(key)
    }

    /// The FCM data of a sink record.
    private static func fcmData(_ record: [String: Any]?) -> [String: Any]? {
        ((record?["payload"] as? [String: Any])?["message"] as? [String: Any])?["data"] as? [String: Any]
    }

    func testAMissedCallShowsTheAppsOwnAlertOnTheIPhoneAndTitleAndBodyOnAndroid() async throws {
        let lab = try await startLab(wakeWindow: 2, iosKeys: """
            missed_title = "Missed call from {{caller}}"
            missed_body = "{{caller_number}} called {{callee}} & hung up"
            missed_category = "MISSED_CALL"
            sound = "missed.caf"
            """, androidKeys: """
            missed_title = "Missed: {{caller_name}}"
            missed_body = "{{caller_number}}"
            """)
        try addIPhone(lab)
        try addAndroid(lab)
        let pbx = try await pbx()
        let outgoing = await call(pbx, lab, pushID: "pair-missed-alert")
        // Nobody registers: the wake window closes and the call is missed.
        let final = await pbx.waitForResponse(outgoing, atLeast: 200, timeout: .seconds(10))
        XCTAssertEqual(final?.status, 480)

        // The iPhone's alert token (never its VoIP token) gets the app's alert.
        let alerts = await lab.push.waitForRecords("apns", token: "apns-alert-1")
        let alert = try XCTUnwrap(alerts.first)
        XCTAssertEqual(alerts.count, 1, "\(alerts)")
        XCTAssertEqual(alert["status"] as? Int, 200, "\(alert)")
        XCTAssertEqual(Self.header(alert, "apns-push-type"), "alert")
        XCTAssertEqual(Self.header(alert, "apns-topic"), "com.example.phone", "the bundle id, not .voip")
        XCTAssertEqual(Self.header(alert, "apns-priority"), "10")
        let aps = try XCTUnwrap((alert["payload"] as? [String: Any])?["aps"] as? [String: Any], "\(alert)")
        let text = try XCTUnwrap(aps["alert"] as? [String: Any], "\(aps)")
        XCTAssertEqual(text["title"] as? String, "Missed call from Bob Caller")
        XCTAssertEqual(text["body"] as? String, "+14155550123 called alice & hung up", "plain text, not HTML-escaped")
        XCTAssertEqual(aps["thread-id"] as? String, "pair-missed-alert")
        XCTAssertEqual(aps["category"] as? String, "MISSED_CALL")
        XCTAssertEqual(aps["sound"] as? String, "missed.caf", "the app's own sound")
        XCTAssertEqual(aps["badge"] as? Int, 1)
        XCTAssertEqual(lab.push.records("apns", token: "apns-voip-1").count, 1, "the VoIP token rang the call only")

        // Android: a data-only message carrying title and body, kept a day.
        let fcm = await lab.push.waitForRecords("fcm", token: "fcm-token-1", count: 2)
        XCTAssertEqual(fcm.count, 2, "\(fcm)")
        let missed = try XCTUnwrap(fcm.last)
        XCTAssertEqual(missed["status"] as? Int, 200, "\(missed)")
        let message = try XCTUnwrap((missed["payload"] as? [String: Any])?["message"] as? [String: Any])
        XCTAssertNil(message["notification"], "data only: the app shows it")
        XCTAssertEqual((message["android"] as? [String: Any])?["ttl"] as? String, "86400s")
        let data = try XCTUnwrap(Self.fcmData(missed))
        XCTAssertEqual(data["title"] as? String, "Missed: Bob Caller")
        XCTAssertEqual(data["body"] as? String, "+14155550123")
        XCTAssertEqual(data["messageType"] as? String, "callEnded")
    }

    func testAKindSwitchedOffIsNeverSentNorRecordedAsAFailedPush() async throws {
        let lab = try await startLab(wakeWindow: 2, iosKeys: "missed_notification = false",
                                     androidKeys: "answered_elsewhere_notification = false")
        try addIPhone(lab)
        try addAndroid(lab)
        let pbx = try await pbx()

        // Missed: the Android phone is told, the iPhone (its app switched missed calls off) is not.
        let first = await call(pbx, lab, pushID: "pair-off-missed")
        let final = await pbx.waitForResponse(first, atLeast: 200, timeout: .seconds(10))
        XCTAssertEqual(final?.status, 480)
        let story = try await record(lab, "pair-off-missed")
        let fcm = await lab.push.waitForRecords("fcm", token: "fcm-token-1", count: 2)
        XCTAssertEqual(Self.fcmData(fcm.last)?["title"] as? String, "Missed call", "\(fcm)")
        let pushes = story["pushes"] as? [[String: Any]] ?? []
        XCTAssertEqual(pushes.filter { $0["verb"] as? String == "NotifyIncomingCallMissed" }.count, 1, "\(pushes)")
        XCTAssertFalse(pushes.contains { $0["result"] as? String == "failed" }, "\(pushes)")
        let events = story["events"] as? [[String: Any]] ?? []
        XCTAssertTrue(events.contains { $0["event"] as? String == "push switched off"
                && ($0["detail"] as? String)?.contains("NotifyIncomingCallMissed selector=sel-iphone") == true },
                      "\(events)")

        // Answered on the iPhone: the Android app switched answers elsewhere off.
        let alice = try await startPhone("alice")
        let status = await alice.register(registrar: lab.registrar, user: "alice", password: "alice-secret",
                                          instanceID: nil, uriParams: ";pn-provider=apns;pn-prid=apns-voip-1")
        XCTAssertEqual(status, 200)
        let second = await call(pbx, lab, pushID: "pair-off-elsewhere")
        let incoming = try XCTUnwrapAsync(await alice.waitForInvite(timeout: .seconds(5)))
        await alice.respond(incoming, status: 200)
        let answer = await pbx.waitForResponse(second, atLeast: 200, timeout: .seconds(5))
        XCTAssertEqual(answer?.status, 200)
        let answered = try await record(lab, "pair-off-elsewhere")
        let answeredPushes = answered["pushes"] as? [[String: Any]] ?? []
        XCTAssertFalse(answeredPushes.contains { $0["verb"] as? String == "NotifyIncomingCallAnsweredElsewhere" },
                       "\(answeredPushes)")
        // No answered-elsewhere reaches the Android phone: its only end-of-call
        // push is the first call's missed one. (Whether the second call's
        // incoming push went out depends on the answer beating the tuple read.)
        try await Task.sleep(for: .milliseconds(1000))
        let ends = lab.push.records("fcm", token: "fcm-token-1").filter {
            Self.fcmData($0)?["messageType"] as? String != "incomingCall"
        }
        XCTAssertEqual(ends.count, 1, "only the missed call: \(ends)")
        XCTAssertTrue(lab.push.records("apns", token: "apns-alert-1").isEmpty, "no missed alert, and it answered")

        // The operator sees the switches, and `push test` sends nothing of a kind switched off.
        let check = try lab.server.cli(["config", "check"])
        XCTAssertTrue(check.stdout.contains("phone-ios (com.example.phone: apns, incoming-call-event, missed off)"),
                      check.stdout)
        XCTAssertTrue(check.stdout.contains("phone-android (com.example.phone.android: fcm, incoming-call-event, answered-elsewhere off)"),
                      check.stdout)
        let test = try lab.server.cli(["push", "test", "alice", "--event", "missed", "--json"])
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(test.stdout.utf8)) as? [[String: Any]],
                                 test.stdout + test.stderr)
        let iphone = try XCTUnwrap(rows.first { $0["selector"] as? String == "sel-iphone" }, "\(rows)")
        XCTAssertEqual(iphone["result"] as? String, "failed")
        XCTAssertEqual(iphone["detail"] as? String, "switched off for this app (missed_notification = false)")
        XCTAssertEqual(rows.first { $0["selector"] as? String == "sel-android" }?["result"] as? String, "delivered")
        XCTAssertTrue(lab.push.records("apns", token: "apns-alert-1").isEmpty)
    }

    func testABadNotificationTemplateIsAConfigErrorNamingItsKey() async throws {
        let push = try await startPushLab()
        let path = push.keys.directory.appendingPathComponent("bad-notice.toml").path
        try push.config(iosKeys: "answered_elsewhere_body = \"{{#caller}} answered\"")
            .write(toFile: path, atomically: true, encoding: .utf8)
        let result = try SipwakeProcess.run(SipwakeProcess.executable, ["config", "check", "--config", path])
        XCTAssertEqual(result.status, 1, "\(result.stdout) \(result.stderr)")
        XCTAssertTrue(result.stderr.contains("[apps.phone-ios] answered_elsewhere_body: push template syntax error"),
                      result.stderr)
    }

    // MARK: sipwake push test

    func testPushTestSaysWhyAnAppsCredentialWasRefused() async throws {
        let unknownKey = FileManager.default.temporaryDirectory.appendingPathComponent("unknown-\(UUID().uuidString).pem").path
        defer { try? FileManager.default.removeItem(atPath: unknownKey) }
        try PushLabKeys.run(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", unknownKey])
        let lab = try await startLab(serviceAccountKey: unknownKey)
        try addAndroid(lab)
        let result = try lab.server.cli(["push", "test", "alice"])
        XCTAssertEqual(result.status, 1, "\(result.stdout) \(result.stderr)")
        XCTAssertTrue(result.stdout.contains("no fcm credential yet"), result.stdout)
        XCTAssertTrue(result.stderr.contains("push credential failed"), "the reason is shown: \(result.stderr)")
        XCTAssertTrue(result.stderr.contains("com.example.phone.android"), result.stderr)
        XCTAssertFalse(result.stderr.contains("PRIVATE KEY"), "no key in the log: \(result.stderr)")
        XCTAssertTrue(lab.push.records("fcm").isEmpty, "nothing was sent without a credential")
    }

    func testPushTestSendsToEveryDeviceAndDeletesOnlyGoneTokens() async throws {
        let lab = try await startLab()
        try addIPhone(lab)
        let android = try addAndroid(lab, token: "fcm-gone")
        lab.push.sink.setRule(.gone, forToken: "fcm-gone")
        let result = try lab.server.cli(["push", "test", "alice"])
        XCTAssertEqual(result.status, 1, "a push was not delivered: \(result.stdout) \(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.first?.hasPrefix("TUPLE") == true, result.stdout)
        XCTAssertTrue(lines.contains { $0.contains("com.example.phone ") && $0.contains("apns") && $0.contains("delivered") },
                      result.stdout)
        XCTAssertTrue(lines.contains { $0.contains("fcm") && $0.contains("token-gone") && $0.contains("(tuple deleted)") },
                      result.stdout)
        XCTAssertNil(try lab.tuples.get(id: android.id))
        XCTAssertEqual(lab.push.records("apns", token: "apns-voip-1").count, 1)

        let missed = try lab.server.cli(["push", "test", "alice", "--event", "missed", "--json"])
        XCTAssertEqual(missed.status, 0, missed.stderr)
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(missed.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(rows.map { $0["result"] as? String }, ["delivered"])
        let alert = try XCTUnwrap(lab.push.records("apns", token: "apns-alert-1").first)
        XCTAssertEqual(Self.header(alert, "apns-push-type"), "alert", "a missed call never uses the VoIP token")
    }

    func testPushTestSendsABindingRefreshToTheOtherTokens() async throws {
        let lab = try await startLab()
        try addIPhone(lab)
        try addAndroid(lab)
        let result = try lab.server.cli(["push", "test", "alice", "--event", "binding-refresh", "--json"])
        XCTAssertEqual(result.status, 0, "\(result.stdout) \(result.stderr)")
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(rows.map { $0["result"] as? String }, ["delivered", "delivered"])
        XCTAssertTrue(lab.push.records("apns", token: "apns-voip-1").isEmpty, "never to the VoIP token")
        let apns = try XCTUnwrap(lab.push.records("apns", token: "apns-alert-1").first)
        XCTAssertEqual(Self.header(apns, "apns-push-type"), "background")
        XCTAssertEqual(Self.header(apns, "apns-priority"), "5")
        XCTAssertEqual(apns["status"] as? Int, 200, "the sink takes it as Apple would: \(apns)")
        let payload = try XCTUnwrap(apns["payload"] as? [String: Any])
        XCTAssertEqual(payload["aps"] as? [String: Int], ["content-available": 1])
        XCTAssertEqual(Set(payload.keys), ["aps"], "the built-in payload, not the app's call event: \(payload)")
        let fcm = try XCTUnwrap(lab.push.records("fcm", token: "fcm-token-1").first)
        let message = try XCTUnwrap((fcm["payload"] as? [String: Any])?["message"] as? [String: Any])
        XCTAssertEqual(message["data"] as? [String: String], ["type": "binding-refresh"])
        XCTAssertEqual(message["android"] as? [String: String], ["priority": "high", "ttl": "60s"])
        XCTAssertEqual(fcm["status"] as? Int, 200, "\(fcm)")
    }
}
