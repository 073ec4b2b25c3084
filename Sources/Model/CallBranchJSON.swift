/// One forked branch of a call, as `CallRecordJSON` shows it.
public struct CallBranchJSON: Encodable, Sendable {
    let id: Int
    let contact: String
    @ExplicitNull var instanceID: String?
    let reason: String
    let startedAt: String
    @ExplicitNull var provisionalStatus: Int?
    @ExplicitNull var provisionalAt: String?
    @ExplicitNull var finalStatus: Int?
    @ExplicitNull var endedAt: String?
    @ExplicitNull var cancelled: String?
    @ExplicitNull var finalReason: String?

    init(_ b: CallBranchRecord) {
        id = b.id
        contact = b.contact
        instanceID = b.instanceID
        reason = b.reason
        startedAt = ISO8601Time.milliseconds(b.startedAt)
        provisionalStatus = b.provisionalStatus
        provisionalAt = b.provisionalAt.map(ISO8601Time.milliseconds)
        finalStatus = b.finalStatus
        endedAt = b.endedAt.map(ISO8601Time.milliseconds)
        cancelled = b.cancelled
        finalReason = b.finalReason
    }
}
