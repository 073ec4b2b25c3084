import Foundation
import Logging
import PushSink
import ServiceLifecycle
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
    let sink: PushSink
    let port: Int
    let serviceAccount: String
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    private init(keys: PushLabKeys, sink: PushSink, port: Int, serviceAccount: String, group: ServiceGroup,
                 task: Task<Void, any Error>) {
        self.keys = keys
        self.sink = sink
        self.port = port
        self.serviceAccount = serviceAccount
        self.group = group
        self.task = task
    }

    /// `expireProviderTokens`: the first N good APNs requests are answered 403 ExpiredProviderToken.
    static func start(expireProviderTokens: Int = 0) async throws -> DirectPushLab {
        let keys = try PushLabKeys()
        let logger = Logger(label: "direct-push-lab")
        let settings = PushSinkSettings(
            port: 0, tls: PushSinkTLSFiles(certificate: keys.serverCertificate, key: keys.serverKey),
            apns: PushSinkAPNsSettings(keyPEM: try keys.text(keys.apnsKey), keyID: keyID, teamID: teamID,
                                       expireProviderTokens: expireProviderTokens),
            fcm: PushSinkFCMSettings(project: PushLabKeys.projectID, keyPEM: try keys.text(keys.serviceAccountKey),
                                     clientEmail: PushLabKeys.clientEmail))
        let sink = PushSink(settings: settings, logger: logger)
        let group = ServiceGroup(configuration: .init(services: [.init(service: sink)], logger: logger))
        let task = Task { try await group.run() }
        guard let port = await sink.boundPort else {
            await group.triggerGracefulShutdown()
            throw NSError(domain: "DirectPushLab", code: 1, userInfo: [NSLocalizedDescriptionKey: "push sink did not listen"])
        }
        let account = try keys.serviceAccount(tokenURI: "https://127.0.0.1:\(port)/token")
        return DirectPushLab(keys: keys, sink: sink, port: port, serviceAccount: account, group: group, task: task)
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

    /// Shuts the sink down; a client that keeps its connection open past
    /// two seconds is cut off.
    func stop() async {
        await group.triggerGracefulShutdown()
        let task = self.task
        let watchdog = Task {
            try await Task.sleep(for: .seconds(2))
            task.cancel()
        }
        _ = try? await task.value
        watchdog.cancel()
        keys.remove()
    }

    /// Every record of `provider` (and `token`, when given), as JSON objects.
    func records(_ provider: String, token: String? = nil) -> [[String: Any]] {
        let encoder = PushSinkRecord.jsonEncoder()
        return sink.records().filter { $0.provider == provider && (token == nil || $0.token == token) }.compactMap {
            guard let data = try? encoder.encode($0) else { return nil }
            return try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        }
    }

    /// Waits until `count` records of `provider` for `token` have arrived.
    func waitForRecords(_ provider: String, token: String? = nil, count: Int = 1,
                        timeout: Duration = .seconds(10)) async -> [[String: Any]] {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let found = records(provider, token: token)
            if found.count >= count { return found }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return records(provider, token: token)
    }
}
