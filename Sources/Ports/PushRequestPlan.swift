import Model

/// What a push provider makes of one message when its push starts.
public enum PushRequestPlan: Sendable, Equatable {
    /// Send this request.
    case send(PushHTTPRequest)
    /// The provider's credential (a signed JWT, an OAuth access token) is
    /// being made: ask again shortly. The transport waits at most its push
    /// timeout, then the push fails as retryable.
    case waitForCredential
    /// The message cannot be sent (a payload over the provider's limit, a
    /// template that did not render): this is its result.
    case refuse(PushResult)
}
