/// What a push tells the device about a call.
public enum PushEvent: String, Sendable, Equatable, CaseIterable {
    /// Wakes the app for the call (the tuple's incoming-call token pair).
    case incomingCall = "incoming-call"
    /// The call ended unanswered (the tuple's other token pair).
    case missed
    /// Another device took the call (the tuple's other token pair).
    case answeredElsewhere = "answered-elsewhere"

    /// The name kept in call records and shown by the admin API and
    /// `sipwake calls show`. These names were fixed by the first release
    /// (they are the Acrobits verbs) and stay, whatever the provider.
    public var recordName: String {
        switch self {
        case .incomingCall: return "NotifyIncomingCall"
        case .missed: return "NotifyIncomingCallMissed"
        case .answeredElsewhere: return "NotifyIncomingCallAnsweredElsewhere"
        }
    }

    /// Whether the push goes to the incoming-call token pair (else to the other pair).
    public var usesCallsPair: Bool { self == .incomingCall }
}
