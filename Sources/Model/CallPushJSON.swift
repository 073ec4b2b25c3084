/// One push of a call, as `CallRecordJSON` shows it.
public struct CallPushJSON: Encodable, Sendable {
    let id: Int
    let tupleID: Int64
    let selector: String
    let verb: String
    let attempt: Int
    let sentAt: String
    @ExplicitNull var completedAt: String?
    @ExplicitNull var httpStatus: Int?
    @ExplicitNull var result: String?
    @ExplicitNull var detail: String?

    init(_ p: CallPushRecord) {
        id = p.id
        tupleID = p.tupleID
        selector = p.selector
        verb = p.verb
        attempt = p.attempt
        sentAt = ISO8601Time.milliseconds(p.sentAt)
        completedAt = p.completedAt.map(ISO8601Time.milliseconds)
        httpStatus = p.httpStatus
        result = p.result
        detail = p.detail
    }
}
