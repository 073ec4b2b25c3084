import API
import Foundation
import Hummingbird
import HummingbirdTesting
import Model
import SQLiteStorage
import XCTest

final class AdminCallsAPITests: XCTestCase {
    static let pairingID = "pair-7c3a0d14"
    static let callID = "a84b4c76e66710@198.51.100.9"
    static let recordID = "6f1d2c3b-0a9e-4f7d-8c6b-5a4e3d2c1b0a"

    /// A call to alice answered by the device that registered after its push.
    static func answeredCall(startedAt start: Date) -> CallRecord {
        let at = { (seconds: Double) in start.addingTimeInterval(seconds) }
        return CallRecord(
            id: recordID, pairingID: pairingID, callID: callID, callee: "alice", caller: "sip:bob@example.com",
            callerDisplayName: "Bob", startedAt: start, endedAt: at(4.5), outcome: .answered, finalStatus: 200,
            answeredBy: "sip:alice@203.0.113.7:50123",
            pushes: [CallPushRecord(id: 1, tupleID: 7, selector: AdminTests.selector, verb: "NotifyIncomingCall",
                                    attempt: 1, sentAt: at(0.003), completedAt: at(0.25), httpStatus: 200,
                                    result: "delivered")],
            branches: [CallBranchRecord(id: 1, contact: "sip:alice@203.0.113.7:50123", reason: "late-register",
                                        startedAt: at(2.125), provisionalStatus: 180, provisionalAt: at(2.5),
                                        finalStatus: 200, endedAt: at(4.5))],
            events: [CallEventRecord(at: start, event: "invite received"),
                     CallEventRecord(at: at(4.5), event: "branch answered", detail: "branch 1")])
    }

    /// A call nobody answered, `index` seconds after `start`.
    static func missedCall(_ index: Int, callee: String = "bob", start: Date) -> CallRecord {
        CallRecord(
            id: "missed-\(index)", pairingID: "pair-missed-\(index)", callID: "missed-\(index)@198.51.100.9",
            callee: callee, caller: "sip:carol@example.com", startedAt: start.addingTimeInterval(Double(index)),
            endedAt: start.addingTimeInterval(Double(index) + 30), outcome: .noAnswer, finalStatus: 480)
    }

    private static let start = Date(timeIntervalSince1970: 1_795_000_000.25)

    private static func seed(_ database: SipwakeDatabase) throws {
        try CallRecordStore(database: database).save(
            [answeredCall(startedAt: start)] + (1...3).map { missedCall($0, start: start) })
    }

    private static func get(_ client: any TestClientProtocol, _ uri: String) async throws -> (HTTPResponse.Status, [String: Any]) {
        try await client.execute(uri: uri, method: .get, headers: AdminTests.headers()) { response in
            (response.status, try AdminTests.object(response))
        }
    }

    func testListIsAPageOfWholeRecordsNewestFirst() async throws {
        try await AdminTests.withApp { client, database in
            try Self.seed(database)
            let (status, page) = try await Self.get(client, "/admin/v1/calls")
            XCTAssertEqual(status, .ok)
            XCTAssertEqual(page["total"] as? Int, 4)
            XCTAssertEqual(page["limit"] as? Int, 50)
            XCTAssertEqual(page["offset"] as? Int, 0)
            let items = try XCTUnwrap(page["items"] as? [[String: Any]])
            XCTAssertEqual(items.compactMap { $0["id"] as? String },
                           ["missed-3", "missed-2", "missed-1", Self.recordID])
            let alice = try XCTUnwrap(items.last)
            XCTAssertEqual(alice["pairing_id"] as? String, Self.pairingID)
            XCTAssertEqual(alice["started_at"] as? String, "2026-11-18T11:06:40.250Z")
            XCTAssertEqual((alice["pushes"] as? [[String: Any]])?.first?["result"] as? String, "delivered")
            XCTAssertTrue(items[0]["caller_display_name"] is NSNull)
        }
    }

    func testRejectedCallsAreListedWithTheirReasonAndAnAnsweredCallWithItsHangUp() async throws {
        try await AdminTests.withApp { client, database in
            var answered = Self.answeredCall(startedAt: Self.start)
            answered.hungUpAt = Self.start.addingTimeInterval(64.5)
            answered.hungUpBy = .caller
            let rejected = CallRecord(
                id: "rejected-1", pairingID: "", callID: "r1@pbx.example.com", callee: "nobody",
                caller: "sip:1002@pbx.example.com", startedAt: Self.start.addingTimeInterval(1),
                endedAt: Self.start.addingTimeInterval(1), outcome: .rejected, finalStatus: 404, reason: "unknown user")
            try CallRecordStore(database: database).save([answered, rejected])
            let (status, page) = try await Self.get(client, "/admin/v1/calls?outcome=rejected")
            XCTAssertEqual(status, .ok)
            XCTAssertEqual(page["total"] as? Int, 1)
            let item = try XCTUnwrap((page["items"] as? [[String: Any]])?.first)
            XCTAssertEqual(item["reason"] as? String, "unknown user")
            XCTAssertEqual(item["final_status"] as? Int, 404)
            XCTAssertEqual(item["pairing_id"] as? String, "")
            XCTAssertTrue(item["hung_up_at"] is NSNull)

            let (_, call) = try await Self.get(client, "/admin/v1/calls/\(Self.pairingID)")
            XCTAssertEqual(call["hung_up_at"] as? String, "2026-11-18T11:07:44.750Z")
            XCTAssertEqual(call["hung_up_by"] as? String, "caller")
            XCTAssertTrue(call["reason"] is NSNull)
        }
    }

    func testListFiltersByUserAndOutcomeAndPages() async throws {
        try await AdminTests.withApp { client, database in
            try Self.seed(database)
            let (_, alice) = try await Self.get(client, "/admin/v1/calls?user=Alice")
            XCTAssertEqual(alice["total"] as? Int, 1)
            XCTAssertEqual((alice["items"] as? [[String: Any]])?.first?["callee"] as? String, "alice")

            let (_, missed) = try await Self.get(client, "/admin/v1/calls?outcome=no-answer&limit=2&offset=1")
            XCTAssertEqual(missed["total"] as? Int, 3)
            XCTAssertEqual((missed["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String },
                           ["missed-2", "missed-1"])

            let (_, upper) = try await Self.get(client, "/admin/v1/calls?outcome=No-Answer")
            XCTAssertEqual(upper["total"] as? Int, 3, "outcomes are read in any case, as in the CLI")

            let (_, none) = try await Self.get(client, "/admin/v1/calls?user=alice&outcome=declined")
            XCTAssertEqual(none["total"] as? Int, 0)
            XCTAssertEqual((none["items"] as? [Any])?.count, 0)
        }
    }

    func testBadPagingOrOutcomeIs400NamingTheParameter() async throws {
        try await AdminTests.withApp { client, database in
            try Self.seed(database)
            for (query, field) in [("limit=201", "limit"), ("limit=-1", "limit"), ("limit=ten", "limit"),
                                   ("offset=-5", "offset"), ("outcome=rang", "outcome"), ("outcome=", "outcome")] {
                try await client.execute(uri: "/admin/v1/calls?\(query)", method: .get,
                                         headers: AdminTests.headers()) { response in
                    try AdminTests.assertError(response, .badRequest, field: field)
                }
            }
        }
    }

    func testOneCallByRecordIDPairingIDOrCallID() async throws {
        try await AdminTests.withApp { client, database in
            try Self.seed(database)
            let encodedCallID = Self.callID.replacingOccurrences(of: "@", with: "%40")
            for key in [Self.recordID, Self.pairingID, Self.callID, encodedCallID] {
                let (status, record) = try await Self.get(client, "/admin/v1/calls/\(key)")
                XCTAssertEqual(status, .ok, key)
                XCTAssertEqual(record["id"] as? String, Self.recordID, key)
                XCTAssertEqual(record["call_id"] as? String, Self.callID)
                XCTAssertEqual(record["outcome"] as? String, "answered")
                XCTAssertEqual(record["final_status"] as? Int, 200)
                XCTAssertEqual(record["ended_at"] as? String, "2026-11-18T11:06:44.750Z")
                let branch = try XCTUnwrap((record["branches"] as? [[String: Any]])?.first)
                XCTAssertEqual(branch["provisional_status"] as? Int, 180)
                XCTAssertEqual(branch["provisional_at"] as? String, "2026-11-18T11:06:42.750Z")
                XCTAssertTrue(branch["cancelled"] is NSNull)
                XCTAssertEqual((record["events"] as? [[String: Any]])?.last?["detail"] as? String, "branch 1")
            }
        }
    }

    func testAnUnknownCallIs404WithAJSONError() async throws {
        try await AdminTests.withApp { client, database in
            try Self.seed(database)
            try await client.execute(uri: "/admin/v1/calls/no-such-call", method: .get,
                                     headers: AdminTests.headers()) { response in
                try AdminTests.assertError(response, .notFound, field: "id")
                XCTAssertEqual(try AdminTests.object(response)["error"] as? String,
                               "no call with record id, pairing id or Call-ID 'no-such-call'")
            }
        }
    }

    func testCallsNeedTheAdminToken() async throws {
        try await AdminTests.withApp { client, database in
            try Self.seed(database)
            for uri in ["/admin/v1/calls", "/admin/v1/calls/\(Self.pairingID)"] {
                for headers in [AdminTests.headers(token: nil), AdminTests.headers(token: "not-the-token")] {
                    try await client.execute(uri: uri, method: .get, headers: headers) { response in
                        try AdminTests.assertError(response, .unauthorized)
                        XCTAssertFalse(String(buffer: response.body).contains(Self.pairingID), "nothing leaks")
                    }
                }
            }
        }
        try await AdminTests.withApp(token: nil) { client, database in
            try Self.seed(database)
            try await client.execute(uri: "/admin/v1/calls", method: .get, headers: AdminTests.headers()) { response in
                try AdminTests.assertError(response, .notFound)
                XCTAssertEqual(try AdminTests.object(response)["error"] as? String, "admin API disabled")
            }
        }
    }

    func testLiveCallsAreTheRunningServersCallsAnd503WhenItIsNotRunning() async throws {
        try await AdminTests.withApp { client, _ in
            let (status, body) = try await Self.get(client, "/admin/v1/live-calls")
            XCTAssertEqual(status, .ok)
            let items = try XCTUnwrap(body["items"] as? [[String: Any]])
            XCTAssertEqual(items.map { $0["pairing_id"] as? String }, ["pair-live"])
            XCTAssertTrue(items.first?["outcome"] is NSNull)
        }
        try await AdminTests.withApp(liveCalls: { nil }) { client, _ in
            let (status, body) = try await Self.get(client, "/admin/v1/live-calls")
            XCTAssertEqual(status, .serviceUnavailable)
            XCTAssertEqual(body["error"] as? String, "the SIP server is not running")
        }
        try await AdminTests.withApp { client, _ in
            try await client.execute(uri: "/admin/v1/live-calls", method: .get, headers: AdminTests.headers(token: nil)) { response in
                XCTAssertEqual(response.status, .unauthorized)
                XCTAssertFalse(String(buffer: response.body).contains("pair-live"), "nothing leaks")
            }
        }
    }
}
