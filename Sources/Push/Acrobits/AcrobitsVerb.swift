import Model

/// The verbs of the Acrobits push contract, one per push event.
public enum AcrobitsVerb: String, Sendable, CaseIterable {
    /// Wakes the app for a call (the incoming-call token pair).
    case incomingCall = "NotifyIncomingCall"
    /// The call ended unanswered (the other token pair).
    case missed = "NotifyIncomingCallMissed"
    /// Another device took the call (the other token pair).
    case answeredElsewhere = "NotifyIncomingCallAnsweredElsewhere"

    /// Nil for a binding-refresh push: the gateway has no verb for it.
    public init?(_ event: PushEvent) {
        switch event {
        case .incomingCall: self = .incomingCall
        case .missed: self = .missed
        case .answeredElsewhere: self = .answeredElsewhere
        case .bindingRefresh: return nil
        }
    }
}
