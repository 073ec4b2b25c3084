/// The verbs of the Acrobits push contract.
public enum PushVerb: String, Sendable, Codable, CaseIterable {
    /// Wakes the app for a call (the incoming-call token pair).
    case incomingCall = "NotifyIncomingCall"
    /// The call ended unanswered (the other token pair).
    case missed = "NotifyIncomingCallMissed"
    /// Another device took the call (the other token pair).
    case answeredElsewhere = "NotifyIncomingCallAnsweredElsewhere"
}
