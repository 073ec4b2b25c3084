import Foundation
import Model

/// The payload of a binding-refresh push (RFC 8599 §5) sent through APNs or
/// FCM, the same for every app whatever its ``PushPayloadFormat``: it carries
/// no call, only the request to re-register and the registration's PRID-URR
/// (``PushMessage/purr``) under `pn-purr`, which the app puts back in the
/// Contact of the REGISTER it sends (RFC 8599 §4.1.2).
///
/// - On APNs: `{"aps": {"content-available": 1}, "pn-purr": "<purr>"}`, a
///   silent push that wakes the app in the background.
/// - On FCM, the `data` object: `{"type": "binding-refresh", "pn-purr": "<purr>"}`.
///
/// `pn-purr` is left out when the registration has none.
public struct BindingRefreshPayload: Sendable, Equatable {
    public let message: PushMessage

    public init(_ message: PushMessage) {
        self.message = message
    }

    /// The APNs payload's keys besides `aps`.
    public var apnsObject: [String: PushJSONValue] {
        var object: [String: PushJSONValue] = [:]
        object["pn-purr"] = message.purr.map(PushJSONValue.string)
        return object
    }

    /// The FCM `data` object.
    public var fcmData: [String: String] {
        var data = ["type": PushEvent.bindingRefresh.rawValue]
        data["pn-purr"] = message.purr
        return data
    }
}
