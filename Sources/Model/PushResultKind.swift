/// What a push attempt came to, as the caller acts on it.
public enum PushResultKind: String, Sendable, Equatable {
    /// The provider took the push.
    case delivered
    /// The provider says the device token is no longer registered: the tuple can go.
    case tokenGone = "token-gone"
    /// The provider was busy, down, slow or unreachable: trying again later may work.
    case retryable
    /// The provider refused the push for another reason, or there was no way
    /// to send it: trying again will not help.
    case failed
}
