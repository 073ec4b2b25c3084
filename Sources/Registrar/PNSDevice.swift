import Model

/// What an RFC 8599 registration makes of its device: the device tuple's
/// push pairs. On APNs the calls pair is the VoIP token and the other pair
/// the alert ("remote") token when the phone gave one; on FCM one token
/// serves both.
public struct PNSDevice: Sendable, Equatable {
    public var app: PNSApp
    public var tokenCalls: String
    /// The token of missed, answered-elsewhere and binding-refresh pushes; nil
    /// on APNs when the phone gave only its VoIP token (which Apple allows for
    /// ringing calls only).
    public var tokenOther: String?
    public var platform: DevicePlatform

    public init(app: PNSApp, tokenCalls: String, tokenOther: String?, platform: DevicePlatform) {
        self.app = app
        self.tokenCalls = tokenCalls
        self.tokenOther = tokenOther
        self.platform = platform
    }
}
