import Foundation
import Model
import Ports

/// Apple's push service, reached directly with a provider token (JWT) for
/// one app (``APNsSettings``): `POST {base}/3/device/{token}` over HTTP/2.
///
/// Incoming calls are VoIP pushes that wake the app through PushKit; endings
/// go to the device's other token as an alert (missed, and answered
/// elsewhere when the app gives it text: ``EndOfCallNotices``) or a silent
/// background push (answered elsewhere by default), and so does a
/// binding-refresh push, as a background push: ``APNsPushKind`` has the
/// headers of each. `apns-id` is the push's event id, so Apple's logs and the app see
/// the same id. The payload is the app's ``PushPayloadFormat`` beside the
/// `aps` dictionary (a template's own `aps` is kept as written); a binding
/// refresh's is ``BindingRefreshPayload`` whatever the format.
///
/// Until the app's first provider token is made, pushes wait for it. A push
/// over Apple's limit (5120 bytes for VoIP, 4096 otherwise) is not sent.
public struct APNsProvider: PushProvider {
    /// The provider name metrics use.
    public static let name = "apns"

    public let settings: APNsSettings
    private let credential: PushCredentialStore

    /// `credential` is where the app's provider token is kept fresh.
    public init(settings: APNsSettings, credential: PushCredentialStore) {
        self.settings = settings
        self.credential = credential
    }

    public var name: String { Self.name }

    public func request(for message: PushMessage, at now: Date) -> PushRequestPlan {
        guard let jwt = credential.current(at: now) else { return .waitForCredential }
        let kind = APNsPushKind(event: message.event, bundleID: settings.bundleID,
                                visible: settings.notices.notice(for: message.event)?.isVisible ?? false)
        let body: Data
        switch payload(for: message) {
        case .success(let data): body = data
        case .failure(let error): return .refuse(.failed(status: nil, detail: error.description))
        }
        guard body.count <= kind.payloadLimit else {
            return .refuse(.failed(status: nil, detail: "payload \(body.count) bytes over APNs limit \(kind.payloadLimit)"))
        }
        let expiration = kind.lifetime.map { Int(now.timeIntervalSince1970) + $0 } ?? 0
        return .send(PushHTTPRequest(
            url: "\(settings.baseURL)/3/device/\(message.deviceToken)", method: "POST",
            headers: [
                PushHTTPHeader("authorization", "bearer \(jwt)"),
                PushHTTPHeader("apns-push-type", kind.pushType),
                PushHTTPHeader("apns-topic", kind.topic),
                PushHTTPHeader("apns-priority", String(kind.priority)),
                PushHTTPHeader("apns-expiration", String(expiration)),
                PushHTTPHeader("apns-id", message.eventID.uuidString.uppercased()),
                PushHTTPHeader("content-type", "application/json"),
            ],
            body: body))
    }

    /// The JSON payload of `message`: the app's format and the `aps` its push type needs.
    public func payload(for message: PushMessage) -> Result<Data, PushTemplateError> {
        settings.format.apnsObject(for: message).map { object in
            var object = object
            if object["aps"] == nil {
                object["aps"] = .object(APNsPushKind.aps(for: message, notice: settings.notices.notice(for: message.event)))
            }
            return object.jsonData
        }
    }

    public func classify(_ answer: PushHTTPAnswer, to request: PushHTTPRequest) -> PushResult {
        switch answer {
        case .response(let status, let headers, let body):
            return APNsAnswer.classify(status: status, headers: headers, body: body) {
                if let bearer = PushAnswerDetail.bearer(of: request) { credential.invalidate(ifToken: bearer) }
            }
        case .transportFailure(let failure):
            return PushAnswerDetail.transportResult(failure)
        }
    }
}
