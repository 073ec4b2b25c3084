/// The outcome of one push: its kind, the gateway's HTTP status when there was
/// an answer, and the gateway's message or the transport error.
public struct PushResult: Sendable, Equatable {
    public var kind: PushResultKind
    public var httpStatus: Int?
    public var detail: String?

    public init(kind: PushResultKind, httpStatus: Int? = nil, detail: String? = nil) {
        self.kind = kind
        self.httpStatus = httpStatus
        self.detail = detail
    }
}
