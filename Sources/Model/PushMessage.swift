import Foundation

/// One push for one device, whatever provider carries it: which device
/// (provider, app, token, selector), which call (the pairing id that is also
/// in the INVITE's `X-Push-ID`), what happened, who calls, and when. A
/// binding-refresh push (``PushEvent/bindingRefresh``) carries no call: its
/// call fields are not read, and ``purr`` names the registration instead.
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
    /// The called user (the AOR's user part).
    public var callee: String
    /// The caller's URI as the INVITE's From named it.
    public var callerURI: String?
    /// When the call reached sipwake (the INVITE's arrival).
    public var callStartedAt: Date
    /// A fresh id for this one push, for apps that drop duplicates (a retry gets its own).
    public var eventID: UUID
    /// How the call ended, for the pushes sent at its end (nil while it is
    /// pending): the customer's webhook tells a cancelled call from a missed one.
    public var callOutcome: CallOutcome?
    /// The number or user the caller dialled (the INVITE's To user); nil when unknown.
    public var calledNumber: String?
    /// For a binding-refresh push: the PRID-URR (RFC 8599 `pn-purr`) sipwake
    /// gave the registration in `+sip.pnspurr`, which the phone puts back in
    /// the Contact of the REGISTER the push makes it send (RFC 8599 §4.1.2);
    /// nil when there is none.
    public var purr: String?

    public init(provider: String, event: PushEvent, tupleID: Int64, appID: String, deviceToken: String,
                selector: String, pairingID: String, callerDisplayName: String?, callerUser: String?,
                callerDomain: String?, media: String?, badge: Int?, sound: String?, sentAt: Date,
                expiresAt: Date? = nil, callee: String = "", callerURI: String? = nil, callStartedAt: Date? = nil,
                eventID: UUID = .random(), callOutcome: CallOutcome? = nil, calledNumber: String? = nil,
                purr: String? = nil) {
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
        self.callee = callee
        // An unparsable From leaves an empty URI: none, for the payloads.
        self.callerURI = callerURI?.isEmpty == true ? nil : callerURI
        self.callStartedAt = callStartedAt ?? sentAt
        self.eventID = eventID
        self.callOutcome = callOutcome
        self.calledNumber = calledNumber
        self.purr = purr
    }

    /// Whether the call offers video.
    public var hasVideo: Bool { media == "video" }

    /// The caller's number in E.164 (`+` and 2 to 15 digits, the first not 0),
    /// when the caller's user part is one once visual separators (space, `-`,
    /// `.`, parentheses) are dropped; nil otherwise.
    public var callerE164: String? {
        guard let user = callerUser else { return nil }
        let kept = user.filter { !" -.()".contains($0) }
        guard kept.first == "+" else { return nil }
        let digits = kept.dropFirst()
        guard (2...15).contains(digits.count), digits.first != "0",
              digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return kept
    }

    /// The caller as people name them, for a notification's text: the
    /// display name, else the number in E.164, else the user part of the
    /// URI; nil when none is known.
    public var callerLabel: String? {
        [callerDisplayName, callerE164, callerUser].lazy.compactMap { $0 }
            .first { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }

    /// The token as logs show it: a token lets anyone push to that phone.
    public var shortToken: String { "\(deviceToken.prefix(8))…" }
}
