import Foundation
import Logging
import PushSink
import ServiceLifecycle

/// A customer's backend for an end-to-end test: a `PushSink` in the test
/// process over plain HTTP on a free loopback port, taking sipwake's call
/// webhooks at `/webhook` and checking their signatures with the lab's
/// secret, and the `[webhook]` configuration that points sipwake at it.
final class WebhookLab: Sendable {
    static let secret = "lab-webhook-secret-0123456789abcdef0123"

    let sink: PushSink
    let port: Int
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    private init(sink: PushSink, port: Int, group: ServiceGroup, task: Task<Void, any Error>) {
        self.sink = sink
        self.port = port
        self.group = group
        self.task = task
    }

    static func start() async throws -> WebhookLab {
        let logger = Logger(label: "webhook-lab")
        let sink = PushSink(settings: PushSinkSettings(port: 0, webhook: PushSinkWebhookSettings(secrets: [secret])),
                            logger: logger)
        let group = ServiceGroup(configuration: .init(services: [.init(service: sink)], logger: logger))
        let task = Task { try await group.run() }
        guard let port = await sink.boundPort else {
            await group.triggerGracefulShutdown()
            throw NSError(domain: "WebhookLab", code: 1, userInfo: [NSLocalizedDescriptionKey: "push sink did not listen"])
        }
        return WebhookLab(sink: sink, port: port, group: group, task: task)
    }

    var url: String { "http://127.0.0.1:\(port)/webhook" }

    /// `[push]` without the gateway and `[webhook]` pointing at the sink.
    func config(timeout: Int = 2, secrets: [String] = [WebhookLab.secret]) -> String {
        """
        [push]
        gateway_url = ""
        [webhook]
        url = "\(url)"
        secrets = [\(secrets.map { "\"\($0)\"" }.joined(separator: ", "))]
        timeout = \(timeout)
        """
    }

    func stop() async {
        await group.triggerGracefulShutdown()
        let task = self.task
        let watchdog = Task {
            try await Task.sleep(for: .seconds(2))
            task.cancel()
        }
        _ = try? await task.value
        watchdog.cancel()
    }

    /// Every webhook received, as JSON objects.
    func records() -> [[String: Any]] {
        let encoder = PushSinkRecord.jsonEncoder()
        return sink.records().filter { $0.provider == "webhook" }.compactMap {
            guard let data = try? encoder.encode($0) else { return nil }
            return try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        }
    }

    /// Waits until `count` webhooks have arrived.
    func waitForRecords(count: Int = 1, timeout: Duration = .seconds(10)) async -> [[String: Any]] {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let found = records()
            if found.count >= count { return found }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return records()
    }

    /// The event type of a record (`call.mobile_push_wakeup`, …).
    static func type(_ record: [String: Any]) -> String? {
        (record["payload"] as? [String: Any])?["type"] as? String
    }

    /// The `data` object of a record's event.
    static func data(_ record: [String: Any]) -> [String: Any]? {
        (record["payload"] as? [String: Any])?["data"] as? [String: Any]
    }
}
