import Foundation
import Model

/// What an app expects inside the pushes sipwake sends it directly through
/// APNs or FCM: the operator picks one per app in `[apps.*]`. A
/// binding-refresh push carries no call: every app gets the same
/// ``BindingRefreshPayload``, whatever its format.
public enum PushPayloadFormat: Sendable {
    /// Apps built on the Acrobits SDK: the fields the Acrobits gateway sends
    /// (``AcrobitsAppPayload``).
    case acrobits
    /// Apps built on the React Native/Expo calls module: one call event
    /// object (``IncomingCallEvent``).
    case incomingCallEvent
    /// The operator's own JSON, written as a Mustache template (``PushTemplate``).
    case template(PushTemplate)

    /// The format's name in sipwake.toml.
    public var name: String {
        switch self {
        case .acrobits: return "acrobits"
        case .incomingCallEvent: return "incoming-call-event"
        case .template: return "template"
        }
    }

    /// The app's part of an APNs payload for `message`, as a JSON object:
    /// the provider adds the `aps` dictionary its push type needs.
    func apnsObject(for message: PushMessage) -> Result<[String: PushJSONValue], PushTemplateError> {
        if message.event == .bindingRefresh { return .success(BindingRefreshPayload(message).apnsObject) }
        switch self {
        case .acrobits: return .success(AcrobitsAppPayload(message).apnsObject)
        case .incomingCallEvent: return .success(IncomingCallEvent(message).apnsObject)
        case .template(let template): return template.renderObject(message)
        }
    }

    /// The FCM `data` object for `message`: FCM takes strings only.
    func fcmData(for message: PushMessage) -> Result<[String: String], PushTemplateError> {
        if message.event == .bindingRefresh { return .success(BindingRefreshPayload(message).fcmData) }
        switch self {
        case .acrobits: return .success(AcrobitsAppPayload(message).fcmData)
        case .incomingCallEvent: return .success(IncomingCallEvent(message).fcmData)
        case .template(let template): return template.renderObject(message).map(\.stringValues)
        }
    }
}
