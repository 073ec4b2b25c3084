/// `[calls]`: how an incoming call to a local user is forked, held while the
/// phone wakes, and ended.
public struct CallsSection: Sendable, Hashable {
    /// Seconds a call waits for a pushed device to wake, register and answer
    /// (1...600). Contacts that register inside it are forked to.
    public var wakeWindow: Int
    /// Final response sent upstream when the window closes unanswered (400...699).
    public var timeoutStatus: Int
    /// Send 180 Ringing upstream as soon as a push has gone out.
    public var ringbackOnPush: Bool
    /// How devices learn a call is over: "push", "message" or "both".
    public var endNotification: String
    /// Seconds after the end during which a device that registers gets the
    /// missed-call MESSAGE (0...600; 0 = never).
    public var missedCallGrace: Int
    /// Pairing id of an INVITE without X-Push-ID: "call-id" or "uuid".
    public var pairingID: String
    /// SIP URI where calls from registered phones to non-local destinations
    /// go (the PBX); "" = such calls are refused with 403.
    public var outboundProxy: String
    /// Days a call record is kept (0...3650; 0 = records are not kept).
    public var recordRetentionDays: Int
    /// Calls refused before ringing (unknown user, failed credentials, a
    /// loop) recorded a minute at the most (0...100000; 0 = none); the
    /// others are only counted.
    public var rejectedRecordsPerMinute: Int

    public init(wakeWindow: Int = 30, timeoutStatus: Int = 480, ringbackOnPush: Bool = false,
                endNotification: String = "both", missedCallGrace: Int = 15, pairingID: String = "call-id",
                outboundProxy: String = "", recordRetentionDays: Int = 7, rejectedRecordsPerMinute: Int = 60) {
        self.wakeWindow = wakeWindow
        self.timeoutStatus = timeoutStatus
        self.ringbackOnPush = ringbackOnPush
        self.endNotification = endNotification
        self.missedCallGrace = missedCallGrace
        self.pairingID = pairingID
        self.outboundProxy = outboundProxy
        self.recordRetentionDays = recordRetentionDays
        self.rejectedRecordsPerMinute = rejectedRecordsPerMinute
    }
}
