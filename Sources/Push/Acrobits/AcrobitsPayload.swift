import Foundation
import Model

/// One push as the Acrobits gateway's `pnm2/send` takes it: a JSON object of
/// strings. `AppId`, `DeviceToken` and `Selector` come from the device's
/// reported tuple; `Id` is the call's pairing id, the same in every push of
/// the call and in the INVITE's `X-Push-ID`.
public struct AcrobitsPayload: Sendable, Equatable {
    public let message: PushMessage

    public init(_ message: PushMessage) {
        self.message = message
    }

    /// The gateway's JSON fields. Every value is a string, `Badge` and
    /// `Timestamp` (Unix seconds) included; optional fields that are not set
    /// are left out, and so is `verb` for an event the gateway has no verb
    /// for (the provider never sends such a push).
    public var fields: [String: String] {
        var fields = [
            "AppId": message.appID,
            "DeviceToken": message.deviceToken,
            "Selector": message.selector,
            "Id": message.pairingID,
            "Timestamp": String(Int(message.sentAt.timeIntervalSince1970)),
        ]
        fields["verb"] = AcrobitsVerb(message.event)?.rawValue
        fields["UserDisplayName"] = message.callerDisplayName
        fields["UserName"] = message.callerUser
        fields["Domain"] = message.callerDomain
        fields["Media"] = message.media
        fields["Badge"] = message.badge.map(String.init)
        fields["Sound"] = message.sound
        return fields
    }

    /// The request body posted to the gateway: ``fields`` as one JSON object.
    public var jsonBody: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A [String: String] always encodes.
        return (try? encoder.encode(fields)) ?? Data("{}".utf8)
    }
}
