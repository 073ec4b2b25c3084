import Foundation
import Model

/// The payload of a push sent straight through APNs or FCM to an app built on
/// the Acrobits SDK: the very fields the Acrobits gateway would have sent
/// (``AcrobitsPayload/fields``: `verb`, `AppId`, `Id`, `UserDisplayName`, …),
/// all strings, so that the app reads a direct push as it reads a gateway one.
///
/// - On APNs they are top-level keys of the payload, beside the `aps`
///   dictionary the push type needs (empty for a VoIP push).
/// - On FCM they are the message's `data` object.
public struct AcrobitsAppPayload: Sendable, Equatable {
    public let message: PushMessage

    public init(_ message: PushMessage) {
        self.message = message
    }

    /// The APNs payload's keys besides `aps`.
    public var apnsObject: [String: PushJSONValue] {
        AcrobitsPayload(message).fields.mapValues(PushJSONValue.string)
    }

    /// The FCM `data` object.
    public var fcmData: [String: String] {
        AcrobitsPayload(message).fields
    }
}
