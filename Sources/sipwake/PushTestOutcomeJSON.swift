import SIPWake

/// One line of `sipwake push test --json`.
struct PushTestOutcomeJSON: Encodable {
    let tupleID: Int64
    let selector: String
    let appID: String?
    let provider: String?
    let result: String
    let status: Int?
    let detail: String?
    let tupleDeleted: Bool

    init(_ outcome: PushTestRun.Outcome) {
        tupleID = outcome.tuple.id
        selector = outcome.tuple.selector
        appID = outcome.appID
        provider = outcome.provider
        result = outcome.result.name
        status = outcome.result.httpStatus
        detail = outcome.result.detail
        tupleDeleted = outcome.deleted
    }
}
