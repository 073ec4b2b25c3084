import Foundation

/// A call record as operators read it: `sipwake calls … --json` and the admin
/// API print the same object. Keys are snake_case, every field is present
/// (absent values are `null`), times are ISO 8601 UTC with milliseconds
/// (`2026-11-22T01:06:13.482Z`): a call's story happens within seconds.
public struct CallRecordJSON: Encodable, Sendable {
    let id: String
    let pairingID: String
    let callID: String
    let callee: String
    let caller: String
    @ExplicitNull var callerDisplayName: String?
    let startedAt: String
    @ExplicitNull var endedAt: String?
    @ExplicitNull var outcome: String?
    @ExplicitNull var reason: String?
    @ExplicitNull var finalStatus: Int?
    @ExplicitNull var answeredBy: String?
    @ExplicitNull var hungUpAt: String?
    @ExplicitNull var hungUpBy: String?
    let pushes: [CallPushJSON]
    let branches: [CallBranchJSON]
    let events: [CallEventJSON]

    public init(_ r: CallRecord) {
        id = r.id
        pairingID = r.pairingID
        callID = r.callID
        callee = r.callee
        caller = r.caller
        callerDisplayName = r.callerDisplayName
        startedAt = ISO8601Time.milliseconds(r.startedAt)
        endedAt = r.endedAt.map(ISO8601Time.milliseconds)
        outcome = r.outcome?.rawValue
        reason = r.reason
        finalStatus = r.finalStatus
        answeredBy = r.answeredBy
        hungUpAt = r.hungUpAt.map(ISO8601Time.milliseconds)
        hungUpBy = r.hungUpBy?.rawValue
        pushes = r.pushes.map(CallPushJSON.init)
        branches = r.branches.map(CallBranchJSON.init)
        events = r.events.map(CallEventJSON.init)
    }
}
