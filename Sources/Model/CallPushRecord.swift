import Foundation

/// One push attempt made for a call.
public struct CallPushRecord: Sendable, Equatable, Codable {
    /// Unique within the call; a retry is a new attempt with a new id.
    public var id: Int
    public var tupleID: Int64
    public var selector: String
    /// `NotifyIncomingCall`, `NotifyIncomingCallMissed` or
    /// `NotifyIncomingCallAnsweredElsewhere`; for the customer's webhook
    /// (selector `webhook`, tuple id 0) its event type (``CallWebhookType``).
    public var verb: String
    /// 1 for the first attempt, 2 for the retry.
    public var attempt: Int
    public var sentAt: Date
    public var completedAt: Date?
    /// HTTP status from the gateway, when it answered.
    public var httpStatus: Int?
    /// `delivered`, `token-gone`, `retryable` or `failed`; nil while in flight.
    public var result: String?
    /// The gateway's message or the transport error.
    public var detail: String?

    public init(id: Int, tupleID: Int64, selector: String, verb: String, attempt: Int, sentAt: Date,
                completedAt: Date? = nil, httpStatus: Int? = nil, result: String? = nil, detail: String? = nil) {
        self.id = id
        self.tupleID = tupleID
        self.selector = selector
        self.verb = verb
        self.attempt = attempt
        self.sentAt = sentAt
        self.completedAt = completedAt
        self.httpStatus = httpStatus
        self.result = result
        self.detail = detail
    }
}
