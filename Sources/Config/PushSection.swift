/// `[push]`: delivery of incoming-call, missed and answered-elsewhere pushes:
/// what every provider shares, and the Acrobits gateway that reaches the
/// apps not listed under `[apps.*]`.
public struct PushSection: Sendable, Hashable {
    /// Send pushes at all. Off: calls fork to registered contacts only.
    public var enabled: Bool
    /// The Acrobits gateway's send URL (http or https); "" = no gateway:
    /// only the apps listed under `[apps.*]` can be pushed, and a report of
    /// any other app id is refused.
    public var gatewayURL: String
    /// Seconds one push may take before it counts as failed and is retried (1...60).
    public var timeout: Int
    /// `Badge` of incoming-call pushes (0...9999).
    public var incomingBadge: Int
    /// `Badge` of missed and answered-elsewhere pushes (0...9999).
    public var missedBadge: Int
    /// `Sound` of every push; "" = no Sound field.
    public var sound: String
    /// PEM file of the CAs that sign the gateway's certificate; "" = the system's.
    public var caFile: String

    public init(enabled: Bool = true, gatewayURL: String = "https://pnm.cloudsoftphone.com/pnm2/send", timeout: Int = 5,
                incomingBadge: Int = 0, missedBadge: Int = 1, sound: String = "default", caFile: String = "") {
        self.enabled = enabled
        self.gatewayURL = gatewayURL
        self.timeout = timeout
        self.incomingBadge = incomingBadge
        self.missedBadge = missedBadge
        self.sound = sound
        self.caFile = caFile
    }
}
