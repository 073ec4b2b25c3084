import Foundation
import Model
import Ports

/// The customer's backend as a push provider: each push of a call to a user
/// of a domain with a webhook becomes a signed JSON event posted to that
/// domain's URL (docs/push.md). The message's device token is the account
/// (the called domain), which chooses the endpoint. The backend gets the
/// events of calls only: a binding-refresh push is refused, never posted.
public struct WebhookProvider: PushProvider {
    public static let name = CallWebhookType.providerName

    public let settings: WebhookSettings

    public init(settings: WebhookSettings) {
        self.settings = settings
    }

    public var name: String { Self.name }

    public func request(for message: PushMessage, at now: Date) -> PushRequestPlan {
        let account = message.deviceToken
        guard let payload = WebhookPayload(message, account: account) else {
            return .refuse(.failed(status: nil, detail: "no \(message.event.rawValue) push through the webhook"))
        }
        guard let endpoint = settings.endpoint(forAccount: account) else {
            return .refuse(.failed(status: nil, detail: "no webhook for \(account)"))
        }
        let body = payload.jsonBody
        let timestamp = Int(now.timeIntervalSince1970)
        return .send(PushHTTPRequest(
            url: endpoint.url, method: "POST",
            headers: [
                PushHTTPHeader("Content-Type", "application/json"),
                PushHTTPHeader(WebhookSignature.headerName,
                               WebhookSignature.header(body: body, timestamp: timestamp, secrets: endpoint.secrets)),
                PushHTTPHeader("X-Sipwake-Event-Id", payload.eventID),
                PushHTTPHeader("X-Sipwake-Event-Type", payload.type.rawValue),
            ],
            body: body, timeout: endpoint.timeout))
    }

    public func classify(_ answer: PushHTTPAnswer, to request: PushHTTPRequest) -> PushResult {
        switch answer {
        case .response(let status, let headers, let body):
            var result = WebhookAnswer.classify(status: status, body: body)
            // A busy backend may say when to come back: the call's retry waits for it.
            if result.kind == .retryable { result.retryAfter = PushRetryAfter.seconds(in: headers) }
            return result
        case .transportFailure(let failure): return WebhookAnswer.classify(failure)
        }
    }
}
