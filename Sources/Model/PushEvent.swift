/// What a push tells the device: about a call, or that its registration is
/// about to expire.
public enum PushEvent: String, Sendable, Equatable, CaseIterable {
    /// Wakes the app for the call (the tuple's incoming-call token pair).
    case incomingCall = "incoming-call"
    /// The call ended unanswered (the tuple's other token pair).
    case missed
    /// Another device took the call (the tuple's other token pair).
    case answeredElsewhere = "answered-elsewhere"
    /// Wakes the app of an RFC 8599 device so that it re-registers before its
    /// binding expires (RFC 8599 §5, the binding-refresh push). It carries no
    /// call, so it goes to the tuple's other token pair: an iOS app's VoIP
    /// token gets only calls that really ring.
    case bindingRefresh = "binding-refresh"

    /// The name kept in call records and shown by the admin API and
    /// `sipwake calls show`. These names were fixed by the first release
    /// (they are the Acrobits verbs) and stay, whatever the provider.
    public var recordName: String {
        switch self {
        case .incomingCall: return "NotifyIncomingCall"
        case .missed: return "NotifyIncomingCallMissed"
        case .answeredElsewhere: return "NotifyIncomingCallAnsweredElsewhere"
        case .bindingRefresh: return "BindingRefresh"
        }
    }

    /// Whether the push goes to the incoming-call token pair (else to the other pair).
    public var usesCallsPair: Bool { self == .incomingCall }
}
