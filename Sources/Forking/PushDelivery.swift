/// What the push gateway said about one push attempt.
public enum PushDelivery: Sendable, Equatable {
    /// Accepted by the gateway.
    case delivered(status: Int)
    /// The gateway says the token is no longer registered: the tuple is stale.
    case tokenGone(status: Int?, detail: String?)
    /// A 5xx, a 429, a timeout or a connection failure: worth one more try.
    case retryable(status: Int?, detail: String?)
    /// Refused for good (another 4xx, no push transport).
    case failed(status: Int?, detail: String?)

    /// The name stored in the call record and on the tuple.
    public var resultName: String {
        switch self {
        case .delivered: return "delivered"
        case .tokenGone: return "token-gone"
        case .retryable: return "retryable"
        case .failed: return "failed"
        }
    }

    public var httpStatus: Int? {
        switch self {
        case .delivered(let status): return status
        case .tokenGone(let status, _), .retryable(let status, _), .failed(let status, _): return status
        }
    }

    public var detail: String? {
        switch self {
        case .delivered: return nil
        case .tokenGone(_, let detail), .retryable(_, let detail), .failed(_, let detail): return detail
        }
    }
}
