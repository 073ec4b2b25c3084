import Model

/// How APNs carries each kind of push:
///
/// | event | push type | topic | priority | expiration | payload limit |
/// |---|---|---|---|---|---|
/// | incoming call | `voip` | `<bundle>.voip` | 10 | now + 30 s | 5120 bytes |
/// | missed | `alert` | `<bundle>` | 10 | now + 24 h | 4096 bytes |
/// | answered elsewhere, with a notification | `alert` | `<bundle>` | 10 | now + 24 h | 4096 bytes |
/// | a silent ending (answered elsewhere by default) | `background` | `<bundle>` | 5 | 0 (now or never) | 4096 bytes |
/// | binding refresh | `background` | `<bundle>` | 5 | now + 60 s | 4096 bytes |
///
/// Incoming calls wake the app through PushKit, whose ring is useless after
/// the call stopped waiting. A missed call is a visible alert (`aps.alert`
/// with the app's ``EndOfCallNotice`` title and body), still worth showing
/// when the phone comes back within a day. "Answered elsewhere" is by
/// default only a note to a running app to stop ringing: a silent
/// `content-available` push, which Apple requires to be of type
/// `background` with priority 5, and which is worthless later; an app whose
/// answered-elsewhere notice has text gets it as an alert instead. A binding
/// refresh wakes the app in the background too, never through PushKit (Apple
/// ends an app that gets a VoIP push without reporting a call); it is worth
/// delivering for about a minute, since the registrar retries a refresh the
/// phone did not answer.
struct APNsPushKind: Sendable, Equatable {
    var pushType: String
    var topic: String
    var priority: Int
    /// Seconds after now the push stays worth delivering; nil for 0 (deliver now or never).
    var lifetime: Int?
    var payloadLimit: Int

    static let voipPayloadLimit = 5120
    static let alertPayloadLimit = 4096

    /// `visible`: whether an ending shows a notification (its notice has text).
    init(event: PushEvent, bundleID: String, visible: Bool = true) {
        switch event {
        case .incomingCall:
            self.init(pushType: "voip", topic: bundleID + ".voip", priority: 10, lifetime: 30,
                      payloadLimit: Self.voipPayloadLimit)
        case .bindingRefresh:
            self.init(pushType: "background", topic: bundleID, priority: 5, lifetime: 60,
                      payloadLimit: Self.alertPayloadLimit)
        case .missed, .answeredElsewhere:
            if visible {
                self.init(pushType: "alert", topic: bundleID, priority: 10, lifetime: 24 * 3600,
                          payloadLimit: Self.alertPayloadLimit)
            } else {
                self.init(pushType: "background", topic: bundleID, priority: 5, lifetime: nil,
                          payloadLimit: Self.alertPayloadLimit)
            }
        }
    }

    init(pushType: String, topic: String, priority: Int, lifetime: Int?, payloadLimit: Int) {
        self.pushType = pushType
        self.topic = topic
        self.priority = priority
        self.lifetime = lifetime
        self.payloadLimit = payloadLimit
    }

    /// The `aps` dictionary of `message`'s push: empty for VoIP;
    /// `content-available` for a binding refresh and a silent ending; for an
    /// ending with a notification, the alert (`title` and `body` as rendered, each left
    /// out when empty), `thread-id` (the pairing id, so that the
    /// notifications of one call group together), `category` when set,
    /// and:
    ///
    /// - missed: the message's sound and badge, when set;
    /// - answered elsewhere: `content-available` too (a running app still
    ///   stops ringing), no sound and no badge (the call was not missed).
    static func aps(for message: PushMessage, notice: EndOfCallNotice?) -> [String: PushJSONValue] {
        let silent: [String: PushJSONValue] = ["content-available": .integer(1)]
        switch message.event {
        case .incomingCall: return [:]
        case .bindingRefresh: return silent
        case .missed, .answeredElsewhere: break
        }
        guard let notice, let text = notice.text(for: message) else { return silent }
        var alert: [String: PushJSONValue] = [:]
        if let title = text.title { alert["title"] = .string(title) }
        if let body = text.body { alert["body"] = .string(body) }
        var aps: [String: PushJSONValue] = [
            "alert": .object(alert),
            "thread-id": .string(message.pairingID),
        ]
        if let category = notice.category { aps["category"] = .string(category) }
        if message.event == .missed {
            if let sound = message.sound { aps["sound"] = .string(sound) }
            if let badge = message.badge { aps["badge"] = .integer(badge) }
        } else {
            aps["content-available"] = .integer(1)
        }
        return aps
    }
}
