import Foundation
import Model
@testable import StorageSupport
import XCTest

/// The stored JSON of a call record is written by hand for speed; it must be
/// the bytes `JSONEncoder` wrote before (rows old and new read alike) and
/// read back as the same record.
final class CallRecordJSONWriterTests: XCTestCase {
    private func encoderJSON(_ record: CallRecord) throws -> String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(record), as: UTF8.self)
    }

    private func decoded(_ json: String) throws -> CallRecord {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try decoder.decode(CallRecord.self, from: Data(json.utf8))
    }

    /// Every field set, with text that needs escaping and times with and
    /// without a fraction.
    private var everything: CallRecord {
        CallRecord(
            id: "rec-1", pairingID: "6F1B0C6E-0D1A-4F4B-9B0C-7E1D2F3A4B5C", callID: "a84b4c76e66710@pbx.example",
            callee: "alice", caller: "sip:1000@pbx.example", callerDisplayName: "Ann \"the\" Caller\\ é 漢 \u{1F4DE}",
            startedAt: Date(timeIntervalSince1970: 1_795_799_291.824895),
            endedAt: Date(timeIntervalSince1970: 1_795_799_300),
            outcome: .answered, finalStatus: 200, answeredBy: "<urn:uuid:00000000-0000-0000-0000-000000000001>",
            pushes: [CallPushRecord(id: 1, tupleID: 9_007_199_254_740_993, selector: "0123456789abcdef", verb: "incoming-call",
                                    attempt: 2, sentAt: Date(timeIntervalSince1970: 1_795_799_291.9),
                                    completedAt: Date(timeIntervalSince1970: 1_795_799_292.0125), httpStatus: 200,
                                    result: "sent", detail: "line1\nline2\ttab\r\u{8}\u{C}\u{1}\u{1F}/slash")],
            branches: [CallBranchRecord(id: 1, contact: "<sip:alice@192.0.2.1:5060;transport=tcp;pn-prid=abc/def>",
                                        instanceID: "<urn:uuid:1>", reason: "registered", startedAt: Date(timeIntervalSince1970: 1_795_799_292.5),
                                        provisionalStatus: 180, provisionalAt: Date(timeIntervalSince1970: 1_795_799_293),
                                        finalStatus: 200, endedAt: Date(timeIntervalSince1970: 1_795_799_294.25),
                                        cancelled: "answered elsewhere", finalReason: "OK"),
                       CallBranchRecord(id: 2, contact: "<sip:alice@[2001:db8::1]>", reason: "late registration",
                                        startedAt: Date(timeIntervalSince1970: 0.001))],
            events: [CallEventRecord(at: Date(timeIntervalSince1970: 1_795_799_291.824895), event: "call received"),
                     CallEventRecord(at: Date(timeIntervalSince1970: 1e-7), event: "tiny", detail: "x=\"y\""),
                     CallEventRecord(at: Date(timeIntervalSince1970: -12.5), event: "before 1970", detail: "")],
            answerTag: "tag;1", hungUpAt: Date(timeIntervalSince1970: 1_795_799_310.000001), hungUpBy: .callee,
            reason: "Q.850;cause=16")
    }

    private var bare: CallRecord {
        CallRecord(id: "r", pairingID: "", callID: "", callee: "", caller: "", startedAt: Date(timeIntervalSince1970: 5))
    }

    func testWritesTheBytesJSONEncoderWrote() throws {
        for record in [everything, bare] {
            XCTAssertEqual(try CallRecordJSONWriter.json(record), try encoderJSON(record))
        }
    }

    func testReadsBackAsTheSameRecord() throws {
        for record in [everything, bare] {
            XCTAssertEqual(try decoded(try CallRecordJSONWriter.json(record)), record)
        }
    }

    func testEveryOutcomeAndPartyIsWrittenAsJSONEncoderDoes() throws {
        for outcome in CallOutcome.allCases {
            for party in CallParty.allCases {
                var record = bare
                record.outcome = outcome
                record.hungUpBy = party
                XCTAssertEqual(try CallRecordJSONWriter.json(record), try encoderJSON(record))
            }
        }
    }

    func testATimeThatIsNotFiniteIsRefusedAndNamed() {
        var record = everything
        record.branches[1].startedAt = Date(timeIntervalSince1970: .infinity)
        XCTAssertThrowsError(try CallRecordJSONWriter.json(record)) { error in
            XCTAssertEqual("\(error)", "startedAt is not a finite time")
        }
    }
}
