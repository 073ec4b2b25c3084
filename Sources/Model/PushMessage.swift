import Foundation

/// One push for one device, whatever provider carries it: which device
/// (provider, app, token, selector), which call (the pairing id that is also
/// in the INVITE's `X-Push-ID`), what happened, who calls, and when.
public struct PushMessage: Sendable, Equatable {
    /// The provider that reaches this device (`acrobits`).
    public var provider: String
    public var event: PushEvent
    /// The device tuple the push goes to.
    public var tupleID: Int64
    public var appID: String
    public var deviceToken: String
    public var selector: String
    public var pairingID: String
    public var callerDisplayName: String?
    public var callerUser: String?
    public var callerDomain: String?
    /// `audio` or `video`, for incoming calls.
    public var media: String?
    public var badge: Int?
    public var sound: String?
    /// When the push was made.
    public var sentAt: Date
    /// After this the push is useless (the call stopped waiting for the device); nil when it never is.
    public var expiresAt: Date?

    public init(provider: String, event: PushEvent, tupleID: Int64, appID: String, deviceToken: String,
                selector: String, pairingID: String, callerDisplayName: String?, callerUser: String?,
                callerDomain: String?, media: String?, badge: Int?, sound: String?, sentAt: Date,
                expiresAt: Date? = nil) {
        self.provider = provider
        self.event = event
        self.tupleID = tupleID
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
        self.sentAt = sentAt
        self.expiresAt = expiresAt
    }

    /// The token as logs show it: a token lets anyone push to that phone.
    public var shortToken: String { "\(deviceToken.prefix(8))…" }
}
