/// What a push attempt came to, as the caller acts on it.
public enum PushResultKind: String, Sendable {
    /// The gateway took the push.
    case delivered
    /// The gateway says the device token is no longer registered: the tuple can go.
    case tokenGone = "token-gone"
    /// The gateway was busy, down, slow or unreachable: trying again later may work.
    case retryable
    /// The gateway refused the push for another reason: trying again will not help.
    case failed
}
