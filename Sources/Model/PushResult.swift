/// The outcome of one push: its kind, the provider's HTTP status when there
/// was an answer, and the provider's message or the transport error.
public struct PushResult: Sendable, Equatable {
    public var kind: PushResultKind
    public var httpStatus: Int?
    public var detail: String?
    /// For a retryable result: how long the provider asked to wait before
    /// trying again (its `Retry-After`), in seconds; nil when it did not say.
    public var retryAfter: Double?

    public init(kind: PushResultKind, httpStatus: Int? = nil, detail: String? = nil, retryAfter: Double? = nil) {
        self.kind = kind
        self.httpStatus = httpStatus
        self.detail = detail
        self.retryAfter = retryAfter
    }

    /// The name stored in the call record and on the tuple.
    public var name: String { kind.rawValue }

    public static func delivered(status: Int?, detail: String? = nil) -> PushResult {
        PushResult(kind: .delivered, httpStatus: status, detail: detail)
    }

    public static func tokenGone(status: Int?, detail: String?) -> PushResult {
        PushResult(kind: .tokenGone, httpStatus: status, detail: detail)
    }

    public static func retryable(status: Int?, detail: String?, retryAfter: Double? = nil) -> PushResult {
        PushResult(kind: .retryable, httpStatus: status, detail: detail, retryAfter: retryAfter)
    }

    public static func failed(status: Int?, detail: String?) -> PushResult {
        PushResult(kind: .failed, httpStatus: status, detail: detail)
    }
}
