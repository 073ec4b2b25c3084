import Foundation
import PushSink
import TestSupport

/// APNs, FCM and Google's OAuth endpoint for an end-to-end test: a
/// `PushSink` in the test process over HTTPS (HTTP/2) on a free loopback
/// port, checking the JWTs against the lab's keys, and the `[push]` and
/// `[apps.*]` configuration that points sipwake at it.
final class DirectPushLab: Sendable {
    static let iosAppID = "com.example.phone"
    static let androidAppID = "com.example.phone.android"
    static let keyID = "TESTKEY123"
    static let teamID = "TEAM123456"

    let keys: PushLabKeys
    let lab: LabSink
    let serviceAccount: String
    var sink: PushSink { lab.sink }
    var port: Int { lab.port }

    private init(keys: PushLabKeys, lab: LabSink, serviceAccount: String) {
        self.keys = keys
        self.lab = lab
        self.serviceAccount = serviceAccount
    }

    /// `expireProviderTokens`: the first N good APNs requests are answered 403 ExpiredProviderToken.
    static func start(expireProviderTokens: Int = 0) async throws -> DirectPushLab {
        let keys = try PushLabKeys()
        let settings = PushSinkSettings(
            port: 0, tls: PushSinkTLSFiles(certificate: keys.serverCertificate, key: keys.serverKey),
            apns: PushSinkAPNsSettings(keyPEM: try keys.text(keys.apnsKey), keyID: keyID, teamID: teamID,
                                       expireProviderTokens: expireProviderTokens),
            fcm: PushSinkFCMSettings(project: PushLabKeys.projectID, keyPEM: try keys.text(keys.serviceAccountKey),
                                     clientEmail: PushLabKeys.clientEmail))
        let lab = try await LabSink.start(settings, label: "direct-push-lab")
        let account = try keys.serviceAccount(tokenURI: "https://127.0.0.1:\(lab.port)/token")
        return DirectPushLab(keys: keys, lab: lab, serviceAccount: account)
    }

    var url: String { "https://127.0.0.1:\(port)" }

    /// `[push]` without the Acrobits gateway, trusting the lab's CA, and an
    /// iOS app on APNs and an Android app on FCM; `iosKeys` and
    /// `androidKeys` are more lines of each app's table.
    func config(iosFormat: String = "incoming-call-event", androidFormat: String = "incoming-call-event",
                timeout: Int = 2, iosKeys: String = "", androidKeys: String = "") -> String {
        """
        [push]
        gateway_url = ""
        ca_file = "\(keys.caCertificate)"
        timeout = \(timeout)
        [apps.phone-ios]
        app_id = "\(Self.iosAppID)"
        provider = "apns"
        key_file = "\(keys.apnsKey)"
        key_id = "\(Self.keyID)"
        team_id = "\(Self.teamID)"
        bundle_id = "\(Self.iosAppID)"
        url = "\(url)"
        format = "\(iosFormat)"
        \(iosKeys)
        [apps.phone-android]
        app_id = "\(Self.androidAppID)"
        provider = "fcm"
        service_account_file = "\(serviceAccount)"
        url = "\(url)"
        format = "\(androidFormat)"
        \(androidKeys)
        """
    }

    func stop() async {
        await lab.stop()
        keys.remove()
    }

    func records(_ provider: String, token: String? = nil) -> [[String: Any]] {
        lab.records(provider, token: token)
    }

    func waitForRecords(_ provider: String, token: String? = nil, count: Int = 1,
                        timeout: Duration = .seconds(10)) async -> [[String: Any]] {
        await lab.waitForRecords(provider, token: token, count: count, timeout: timeout)
    }
}
