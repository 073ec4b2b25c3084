/// The `type` of an event sipwake posts to the customer's webhook
/// (docs/push.md): the wake-up when a call to a user with the wake-up hold
/// starts, and one of the endings once it is over. The wake-up keeps the
/// name of the DialStack contract it follows (`call.mobile_push_wakeup`).
public enum CallWebhookType: String, Sendable, Equatable, CaseIterable {
    /// Wake the user's devices: a call is waiting for them.
    case wakeup = "call.mobile_push_wakeup"
    /// The call ended unanswered (the wake window closed, every device
    /// failed or declined, or sipwake shut down).
    case missed = "call.missed"
    /// Another device of the user took the call, or the caller's CANCEL said
    /// it was answered elsewhere.
    case answeredElsewhere = "call.answered_elsewhere"
    /// The caller hung up before anyone answered.
    case cancelled = "call.cancelled"

    /// The provider name of the customer's webhook, in push messages, call
    /// records and the push result counters.
    public static let providerName = "webhook"

    /// The event of a push of `event` for a call that ended with `outcome`
    /// (nil while it is pending): a missed push of a call the caller
    /// cancelled is `call.cancelled`. Nil for a binding-refresh push: it
    /// concerns no call, and the backend never gets one.
    public init?(event: PushEvent, outcome: CallOutcome?) {
        switch event {
        case .incomingCall: self = .wakeup
        case .answeredElsewhere: self = .answeredElsewhere
        case .missed: self = outcome == .cancelled ? .cancelled : .missed
        case .bindingRefresh: return nil
        }
    }
}
