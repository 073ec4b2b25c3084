import Foundation

/// The timers and policies of a forked call (the `[calls]` configuration section).
public struct ForkSettings: Sendable, Equatable {
    /// How long a call waits for a device to wake, register and answer
    /// (`calls.wake_window`, seconds). Late forking happens inside it; when it
    /// closes unanswered the branches are cancelled and the caller gets
    /// `timeoutStatus`.
    public var wakeWindow: TimeInterval
    /// The final response when the window closes with no answer (`calls.timeout_status`):
    /// 480 lets the PBX fall through to voicemail or its next route.
    public var timeoutStatus: Int
    /// Send 180 Ringing upstream as soon as a push has gone out (`calls.ringback_on_push`).
    public var ringbackOnPush: Bool
    /// How devices learn a call is over (`calls.end_notification`).
    public var endNotification: EndNotification
    /// After the call ends, a device that registers within this many seconds
    /// gets the missed-call MESSAGE so its ringing screen stops (`calls.missed_call_grace`).
    public var missedCallGrace: TimeInterval
    /// Reads the push token a device's Contact URI names it by (RFC 8599
    /// `pn-prid`, or the drafts' `pn-tok`; %-escapes undone), nil when it
    /// names none. It is the SIP layer's URI parser, injected like the
    /// clock, so that the state machine can tell which device tuple
    /// answered. Reads nothing by default; not compared by `==`.
    public var contactPushToken: @Sendable (String) -> String?

    public init(wakeWindow: TimeInterval = 30, timeoutStatus: Int = 480, ringbackOnPush: Bool = false,
                endNotification: EndNotification = .both, missedCallGrace: TimeInterval = 15,
                contactPushToken: @escaping @Sendable (String) -> String? = { _ in nil }) {
        self.wakeWindow = wakeWindow
        self.timeoutStatus = timeoutStatus
        self.ringbackOnPush = ringbackOnPush
        self.endNotification = endNotification
        self.missedCallGrace = missedCallGrace
        self.contactPushToken = contactPushToken
    }

    /// The timers and policies are equal; the Contact reader is code, not a setting.
    public static func == (a: ForkSettings, b: ForkSettings) -> Bool {
        a.wakeWindow == b.wakeWindow && a.timeoutStatus == b.timeoutStatus && a.ringbackOnPush == b.ringbackOnPush
            && a.endNotification == b.endNotification && a.missedCallGrace == b.missedCallGrace
    }
}
