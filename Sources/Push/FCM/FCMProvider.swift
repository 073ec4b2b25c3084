import Foundation
import Model
import Ports

/// Firebase Cloud Messaging's HTTP v1 API, reached directly with an OAuth
/// access token for one app (``FCMSettings``):
/// `POST {base}/v1/projects/{project_id}/messages:send` with
///
/// ```json
/// {"message": {"token": "<device token>", "data": {<the app's format, all strings>},
///              "android": {"priority": "high", "ttl": "30s"}}}
/// ```
///
/// Every push is a data message at high priority, so that the app wakes and
/// decides what to show. An ending with a notification (a missed call, and
/// an answer elsewhere when the app gives it text: ``EndOfCallNotices``)
/// adds its rendered `title` and `body` to `data`, each left out when empty
/// or when the app's format already has that key; the app shows them. The
/// time to live is 30 s for an incoming call and a silent ending (both
/// useless once the call stopped ringing), a day for an ending with a
/// notification (still worth showing when the phone comes back).
///
/// A binding-refresh push is a data message too, at high priority (a
/// normal-priority one can wait for hours while the phone dozes, and the
/// registration would expire first), living 60 s (the registrar retries),
/// with ``BindingRefreshPayload``'s `data` whatever the app's format.
///
/// Until the app's first access token is made, pushes wait for it.
public struct FCMProvider: PushProvider {
    /// The provider name metrics use.
    public static let name = "fcm"

    public let settings: FCMSettings
    private let credential: PushCredentialStore

    /// `credential` is where the app's access token is kept fresh.
    public init(settings: FCMSettings, credential: PushCredentialStore) {
        self.settings = settings
        self.credential = credential
    }

    public var name: String { Self.name }

    /// The `android.ttl` of `event`'s pushes; `visible`: whether the push
    /// carries a notification.
    static func ttl(_ event: PushEvent, visible: Bool) -> String {
        switch event {
        case .incomingCall: return "30s"
        case .bindingRefresh: return "60s"
        case .missed, .answeredElsewhere: return visible ? "86400s" : "30s"
        }
    }

    public func request(for message: PushMessage, at now: Date) -> PushRequestPlan {
        guard let token = credential.current(at: now) else { return .waitForCredential }
        let body: Data
        switch self.body(for: message) {
        case .success(let data): body = data
        case .failure(let error): return .refuse(.failed(status: nil, detail: error.description))
        }
        return .send(PushHTTPRequest(
            url: settings.sendURL, method: "POST",
            headers: [PushHTTPHeader("authorization", "Bearer \(token)"),
                      PushHTTPHeader("content-type", "application/json; charset=utf-8")],
            body: body))
    }

    /// The request body of `message`.
    public func body(for message: PushMessage) -> Result<Data, PushTemplateError> {
        settings.format.fcmData(for: message).map { data in
            var data = data
            let notice = settings.notices.notice(for: message.event)
            if let text = notice?.text(for: message) {
                if let title = text.title, data["title"] == nil { data["title"] = title }
                if let body = text.body, data["body"] == nil { data["body"] = body }
            }
            let ttl = Self.ttl(message.event, visible: notice?.isVisible ?? false)
            let fcmMessage: [String: PushJSONValue] = [
                "token": .string(message.deviceToken),
                "data": .object(data.mapValues(PushJSONValue.string)),
                "android": .object(["priority": .string("high"), "ttl": .string(ttl)]),
            ]
            return ["message": PushJSONValue.object(fcmMessage)].jsonData
        }
    }

    public func classify(_ answer: PushHTTPAnswer, to request: PushHTTPRequest) -> PushResult {
        switch answer {
        case .response(let status, let headers, let body):
            return FCMAnswer.classify(status: status, headers: headers, body: body) {
                if let bearer = PushAnswerDetail.bearer(of: request) { credential.invalidate(ifToken: bearer) }
            }
        case .transportFailure(let failure):
            return PushAnswerDetail.transportResult(failure)
        }
    }
}
