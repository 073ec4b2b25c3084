/// Which notification a push carries. The raw values are the verbs of the
/// Acrobits push contract.
public enum PushKind: String, Sendable, Equatable, CaseIterable {
    /// Wakes the app for the call (incoming-call token pair).
    case incomingCall = "NotifyIncomingCall"
    /// The call ended unanswered (other token pair).
    case missed = "NotifyIncomingCallMissed"
    /// Another device took the call (other token pair).
    case answeredElsewhere = "NotifyIncomingCallAnsweredElsewhere"
}
