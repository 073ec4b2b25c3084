import Foundation

/// One push for one device tuple, as the Acrobits gateway's `pnm2/send` takes it.
///
/// `appID`, `deviceToken` and `selector` come from the device's reported tuple
/// (the incoming-call pair for ``PushVerb/incomingCall``, the other pair for
/// the missed and answered-elsewhere verbs). `pairingID` is the call's `Id`: the
/// same value goes in every push of the call and in the INVITE's `X-Push-ID`.
public struct PushNotification: Sendable, Equatable {
    public var verb: PushVerb
    public var appID: String
    public var deviceToken: String
    public var selector: String
    public var pairingID: String
    public var callerDisplayName: String?
    public var callerUser: String?
    public var callerDomain: String?
    /// `audio` for audio-only calls.
    public var media: String?
    public var badge: Int?
    public var sound: String?
    /// Unix time in seconds.
    public var timestamp: Int

    public init(verb: PushVerb, appID: String, deviceToken: String, selector: String, pairingID: String,
                callerDisplayName: String?, callerUser: String?, callerDomain: String?, media: String?,
                badge: Int?, sound: String?, timestamp: Int) {
        self.verb = verb
        self.appID = appID
        self.deviceToken = deviceToken
        self.selector = selector
        self.pairingID = pairingID
        self.callerDisplayName = callerDisplayName
        self.callerUser = callerUser
        self.callerDomain = callerDomain
        self.media = media
        self.badge = badge
        self.sound = sound
        self.timestamp = timestamp
    }

    /// The gateway's JSON fields. Every value is a string, `Badge` and
    /// `Timestamp` included; optional fields that are not set are left out.
    public var fields: [String: String] {
        var fields = [
            "verb": verb.rawValue,
            "AppId": appID,
            "DeviceToken": deviceToken,
            "Selector": selector,
            "Id": pairingID,
            "Timestamp": String(timestamp),
        ]
        fields["UserDisplayName"] = callerDisplayName
        fields["UserName"] = callerUser
        fields["Domain"] = callerDomain
        fields["Media"] = media
        fields["Badge"] = badge.map(String.init)
        fields["Sound"] = sound
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
