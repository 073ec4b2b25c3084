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

    public init(wakeWindow: TimeInterval = 30, timeoutStatus: Int = 480, ringbackOnPush: Bool = false,
                endNotification: EndNotification = .both, missedCallGrace: TimeInterval = 15) {
        self.wakeWindow = wakeWindow
        self.timeoutStatus = timeoutStatus
        self.ringbackOnPush = ringbackOnPush
        self.endNotification = endNotification
        self.missedCallGrace = missedCallGrace
    }
}
