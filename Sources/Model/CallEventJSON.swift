/// One line of a call's timeline, as `CallRecordJSON` shows it.
public struct CallEventJSON: Encodable, Sendable {
    let at: String
    let event: String
    @ExplicitNull var detail: String?

    init(_ e: CallEventRecord) {
        at = ISO8601Time.milliseconds(e.at)
        event = e.event
        detail = e.detail
    }
}
