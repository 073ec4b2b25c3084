import Foundation
import PushSink

/// A customer's backend for an end-to-end test: a `PushSink` in the test
/// process over plain HTTP on a free loopback port, taking sipwake's call
/// webhooks at `/webhook` and checking their signatures with the lab's
/// secret, and the `[webhook]` configuration that points sipwake at it.
final class WebhookLab: Sendable {
    static let secret = "lab-webhook-secret-0123456789abcdef0123"

    let lab: LabSink
    var sink: PushSink { lab.sink }
    var port: Int { lab.port }

    private init(lab: LabSink) {
        self.lab = lab
    }

    static func start() async throws -> WebhookLab {
        WebhookLab(lab: try await LabSink.start(
            PushSinkSettings(port: 0, webhook: PushSinkWebhookSettings(secrets: [secret])), label: "webhook-lab"))
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
        await lab.stop()
    }

    /// Every webhook received, as JSON objects.
    func records() -> [[String: Any]] {
        lab.records("webhook")
    }

    /// Waits until `count` webhooks have arrived.
    func waitForRecords(count: Int = 1, timeout: Duration = .seconds(10)) async -> [[String: Any]] {
        await lab.waitForRecords("webhook", count: count, timeout: timeout)
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
