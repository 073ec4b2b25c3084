import Foundation
import Hummingbird
import Logging

/// Plays a customer's backend receiving sipwake's call webhooks
/// (`POST /webhook`): checks the `X-Sipwake-Signature` when it knows the
/// secrets (401 when it is missing, wrong or stale), then answers by the
/// rule of the event's `data.user_id`: `ok` 200 (devices found and woken),
/// `gone` 404 (no device for this user), `bad` 400, `fail[:STATUS]`,
/// `slow:MS` (200, late).
struct PushSinkWebhook: Sendable {
    let sink: PushSink

    func receive(_ request: Request) async throws -> Response {
        let now = Date()
        var record = PushSinkRecord(receivedAt: now, provider: "webhook", method: request.method.rawValue,
                                    path: request.uri.path, headers: PushSinkRoutes.headers(of: request), body: [:],
                                    status: 200)
        let data: Data
        do {
            data = Data(buffer: try await request.body.collect(upTo: PushSink.maxBodySize))
        } catch let error as HTTPResponseError where error.status == .contentTooLarge {
            return refuse(413, check: "body larger than \(PushSink.maxBodySize) bytes", record: &record)
        }
        if let payload = PushSinkJSON(data: data), payload.object != nil {
            record.payload = payload
            record.body = payload.fields
            record.token = payload["data"]?.object?["user_id"]?.string
        }
        let settings = sink.settings.webhook
        if !settings.secrets.isEmpty {
            let verdict = PushSinkWebhookSignature.check(
                header: request.headers[HTTPFields.Element.Name("x-sipwake-signature")!], body: data,
                secrets: settings.secrets, tolerance: settings.tolerance, now: now)
            record.signature = verdict.rawValue
            guard verdict == .valid else {
                return refuse(401, check: "signature \(verdict.rawValue)", record: &record)
            }
        }
        guard record.payload != nil else {
            return refuse(400, check: "body is not a JSON object", record: &record)
        }
        let rule = sink.rule(forToken: record.token ?? "")
        record.rule = rule.description
        let answer: [String: String]
        switch rule {
        case .ok, .slow:
            record.status = 200
            answer = ["status": "ok"]
        case .gone:
            record.status = 404
            answer = ["status": "error", "code": "NotFound", "message": "no device for this user"]
        case .bad:
            record.status = 400
            answer = ["status": "error", "code": "BadRequest", "message": "push sink rule bad"]
        case .fail(let status):
            record.status = status
            answer = ["status": "error", "code": "Failed", "message": "push sink rule fail:\(status)"]
        }
        sink.add(record)
        sink.logger.debug("push sink received a webhook", metadata: [
            "push.provider": "webhook", "http.path": "\(record.path)", "webhook.type": "\(record.body["type"] ?? "")",
            "webhook.user": "\(record.token ?? "")", "sink.rule": "\(rule)",
        ])
        try await sink.wait(for: rule)
        return PushSinkRoutes.json(status: record.status, answer)
    }

    private func refuse(_ status: Int, check: String, record: inout PushSinkRecord) -> Response {
        record.status = status
        record.error = check
        sink.add(record)
        sink.logger.debug("push sink refused a webhook", metadata: ["http.path": "\(record.path)", "sink.check": "\(check)"])
        return PushSinkRoutes.json(status: status, ["status": "error", "code": "Refused", "message": check])
    }
}
