import Model

/// How APNs carries each kind of push:
///
/// | event | push type | topic | priority | expiration | payload limit |
/// |---|---|---|---|---|---|
/// | incoming call | `voip` | `<bundle>.voip` | 10 | now + 30 s | 5120 bytes |
/// | missed | `alert` | `<bundle>` | 10 | now + 24 h | 4096 bytes |
/// | answered elsewhere | `background` | `<bundle>` | 5 | 0 (now or never) | 4096 bytes |
///
/// Incoming calls wake the app through PushKit, whose ring is useless after
/// the call stopped waiting. A missed call is a visible alert (`aps.alert`
/// with the title "Missed call" and the caller as body), still worth showing
/// when the phone comes back within a day. "Answered elsewhere" only tells a
/// running app to stop ringing: a silent `content-available` push, which
/// Apple requires to be of type `background` with priority 5, and which is
/// worthless later.
struct APNsPushKind: Sendable, Equatable {
    var pushType: String
    var topic: String
    var priority: Int
    /// Seconds after now the push stays worth delivering; nil for 0 (deliver now or never).
    var lifetime: Int?
    var payloadLimit: Int

    static let voipPayloadLimit = 5120
    static let alertPayloadLimit = 4096

    init(event: PushEvent, bundleID: String) {
        switch event {
        case .incomingCall:
            self.init(pushType: "voip", topic: bundleID + ".voip", priority: 10, lifetime: 30,
                      payloadLimit: Self.voipPayloadLimit)
        case .missed:
            self.init(pushType: "alert", topic: bundleID, priority: 10, lifetime: 24 * 3600,
                      payloadLimit: Self.alertPayloadLimit)
        case .answeredElsewhere:
            self.init(pushType: "background", topic: bundleID, priority: 5, lifetime: nil,
                      payloadLimit: Self.alertPayloadLimit)
        }
    }

    init(pushType: String, topic: String, priority: Int, lifetime: Int?, payloadLimit: Int) {
        self.pushType = pushType
        self.topic = topic
        self.priority = priority
        self.lifetime = lifetime
        self.payloadLimit = payloadLimit
    }

    /// The `aps` dictionary of `message`'s push: empty for VoIP, the alert
    /// for a missed call (with the message's sound and badge when set),
    /// `content-available` for an answer elsewhere.
    static func aps(for message: PushMessage) -> [String: PushJSONValue] {
        switch message.event {
        case .incomingCall:
            return [:]
        case .missed:
            let caller = message.callerDisplayName ?? message.callerE164 ?? message.callerUser ?? "Unknown caller"
            var aps: [String: PushJSONValue] = [
                "alert": .object(["title": .string("Missed call"), "body": .string(caller)]),
            ]
            if let sound = message.sound { aps["sound"] = .string(sound) }
            if let badge = message.badge { aps["badge"] = .integer(badge) }
            return aps
        case .answeredElsewhere:
            return ["content-available": .integer(1)]
        }
    }
}
