import Foundation
import Model
import SQLiteStorage

/// Call records as the forking proxy writes them: a callee with two devices,
/// two pushes (one retried), a branch per device, and a timeline.
enum CallRecordFixture {
    /// A whole second plus a binary fraction: stored and read back exactly.
    static let start = Date(timeIntervalSince1970: 1_795_000_000.25)

    static func record(
        _ index: Int, callee: String = "alice", startedAt: Date = CallRecordFixture.start,
        outcome: CallOutcome? = .answered
    ) -> CallRecord {
        // Offsets are binary fractions of a second too.
        let at = { (seconds: Double) in startedAt.addingTimeInterval(seconds) }
        return CallRecord(
            id: "rec-\(index)", pairingID: "pair-\(index)", callID: "call-\(index)@198.51.100.9",
            callee: callee, caller: "sip:bob@example.com", callerDisplayName: index.isMultiple(of: 2) ? "Bob" : nil,
            startedAt: startedAt, endedAt: outcome == nil ? nil : at(4.5), outcome: outcome,
            finalStatus: outcome == nil ? nil : 200, answeredBy: outcome == nil ? nil : "sip:alice@203.0.113.7:50123",
            pushes: [
                CallPushRecord(id: 1, tupleID: 7, selector: "12869E0E6E55:7C3A0D14", verb: "NotifyIncomingCall",
                               attempt: 1, sentAt: at(0.015625), completedAt: at(0.1875), httpStatus: 503,
                               result: "retryable", detail: "gateway busy"),
                CallPushRecord(id: 2, tupleID: 7, selector: "12869E0E6E55:7C3A0D14", verb: "NotifyIncomingCall",
                               attempt: 2, sentAt: at(1.1875), completedAt: at(1.25), httpStatus: 200,
                               result: "delivered"),
            ],
            branches: [
                CallBranchRecord(id: 1, contact: "sip:alice@203.0.113.7:50123", instanceID: "<urn:uuid:aa>",
                                 reason: "late-register", startedAt: at(2.125), provisionalStatus: 180,
                                 provisionalAt: at(2.3125), finalStatus: 200, endedAt: at(4.5)),
                CallBranchRecord(id: 2, contact: "sip:alice@198.51.100.20:5060", reason: "registered",
                                 startedAt: at(0.0078125), finalStatus: 487, endedAt: at(4.515625),
                                 cancelled: "answered-elsewhere"),
            ],
            events: [
                CallEventRecord(at: at(0), event: "invite received"),
                CallEventRecord(at: at(0.015625), event: "push sent", detail: "attempt 1"),
                CallEventRecord(at: at(2.0625), event: "contact registered", detail: "sip:alice@203.0.113.7:50123"),
                CallEventRecord(at: at(4.5), event: "branch answered", detail: "branch 1"),
            ])
    }
}
