import Foundation
import GRDB
import Model
import Ports
import SQLiteStorage
import XCTest

/// The call-record store; the tests that use `eachAdapter` run on SQLite and PostgreSQL.
final class CallRecordStoreTests: XCTestCase {
    private func eachAdapter(_ body: (OpenedStores) throws -> Void) throws {
        for adapter in StoreAdapter.allCases {
            try OpenedStores.with(adapter, body)
        }
    }

    func testTheV3SchemaHasTheTableAndIndexesAndNoForeignKey() throws {
        let database = try TestDatabase.open(self)
        try database.pool.read { db in
            XCTAssertEqual(
                try db.columns(in: "call_records").map(\.name),
                ["id", "pairing_id", "call_id", "callee", "caller", "started_at", "ended_at", "outcome",
                 "final_status", "record"])
            XCTAssertEqual(try db.primaryKey("call_records").columns, ["id"])
            XCTAssertEqual(try db.foreignKeys(on: "call_records").count, 0, "records outlive users")
            let indexes = try db.indexes(on: "call_records")
            XCTAssertEqual(indexes.first { $0.name == "call_records_callee" }?.columns, ["callee", "started_at"])
            XCTAssertEqual(indexes.first { $0.name == "call_records_pairing_id" }?.columns, ["pairing_id"])
            XCTAssertEqual(indexes.first { $0.name == "call_records_call_id" }?.columns, ["call_id"])
            XCTAssertEqual(indexes.first { $0.name == "call_records_started_at" }?.columns, ["started_at"])
        }
        XCTAssertThrowsError(try database.pool.write { db in
            try db.execute(sql: """
                INSERT INTO call_records (id, pairing_id, call_id, callee, caller, started_at, record)
                VALUES ('x', 'p', 'c', 'alice', 'bob', 0, 'not json')
                """)
        }, "the record column only holds JSON")
    }

    func testTheLastAnsweredPushOfEachTupleIsWrittenOnTheTuple() throws {
        let database = try TestDatabase.open(self)
        _ = try UserStore(database: database).add(username: "alice", realm: "localhost", ha1MD5: String(repeating: "0", count: 32), ha1SHA256: String(repeating: "0", count: 64))
        let tuples = TupleStore(database: database)
        let t0 = Date(timeIntervalSince1970: 1_700_000_000)
        let phone = try tuples.report(username: "alice", selector: "s1", appIDCalls: "a", tokenCalls: "t1",
                                      appIDOther: nil, tokenOther: nil, platform: .ios, now: t0).tuple
        let tablet = try tuples.report(username: "alice", selector: "s2", appIDCalls: "a", tokenCalls: "t2",
                                       appIDOther: nil, tokenOther: nil, platform: .android, now: t0).tuple
        var record = CallRecord(id: "rec-push", pairingID: "p", callID: "c", callee: "alice", caller: "sip:bob@x",
                                startedAt: t0)
        record.pushes = [
            CallPushRecord(id: 1, tupleID: phone.id, selector: "s1", verb: "NotifyIncomingCall", attempt: 1, sentAt: t0,
                           completedAt: t0.addingTimeInterval(0.1), httpStatus: 503, result: "retryable"),
            CallPushRecord(id: 2, tupleID: phone.id, selector: "s1", verb: "NotifyIncomingCall", attempt: 2, sentAt: t0,
                           completedAt: t0.addingTimeInterval(0.2), httpStatus: 200, result: "delivered"),
            // Still in flight: not written.
            CallPushRecord(id: 3, tupleID: tablet.id, selector: "s2", verb: "NotifyIncomingCall", attempt: 1, sentAt: t0),
            // A tuple deleted meanwhile is skipped, not an error.
            CallPushRecord(id: 4, tupleID: 9999, selector: "gone", verb: "NotifyIncomingCall", attempt: 1, sentAt: t0,
                           completedAt: t0, httpStatus: 404, result: "token-gone"),
        ]
        try CallRecordStore(database: database).save(record)
        let updated = try XCTUnwrap(try tuples.get(id: phone.id))
        XCTAssertEqual(updated.lastPushResult, "delivered")
        XCTAssertEqual(updated.lastPushStatus, 200)
        XCTAssertEqual(updated.lastPushAt, t0.addingTimeInterval(0.2))
        XCTAssertNil(try tuples.get(id: tablet.id)?.lastPushResult)
    }

    func testARecordWithPushesBranchesAndEventsComesBackEqual() throws {
        try eachAdapter { opened in
        let store = opened.callRecords
        let record = CallRecordFixture.record(1)
        try store.save(record)
        XCTAssertEqual(try store.find("rec-1"), record)
        XCTAssertEqual(try store.list(), [record])

        var pending = CallRecordFixture.record(3, outcome: nil)
        pending.startedAt = Date()   // an arbitrary time: back within a microsecond
        try store.save(pending)
        let back = try XCTUnwrap(try store.find("rec-3"))
        XCTAssertEqual(back.startedAt.timeIntervalSince1970, pending.startedAt.timeIntervalSince1970, accuracy: 1e-6)
        XCTAssertNil(back.outcome)
        XCTAssertNil(back.endedAt)
        XCTAssertNil(back.callerDisplayName)
        XCTAssertEqual(back.pushes, pending.pushes)
        }
    }

    func testSaveReplacesTheWholeRecordAndItsColumns() throws {
        let database = try TestDatabase.open(self)
        let store = CallRecordStore(database: database)
        var record = CallRecordFixture.record(1, outcome: nil)
        record.pushes = []
        try store.save(record)
        XCTAssertEqual(try store.count(outcome: .declined), 0)

        record = CallRecordFixture.record(1, outcome: .declined)
        record.finalStatus = 603
        try store.save(record)
        XCTAssertEqual(try store.count(), 1, "one row per id")
        XCTAssertEqual(try store.find("rec-1"), record)
        XCTAssertEqual(try store.list(outcome: .declined).map(\.id), ["rec-1"])
        let columns = try database.pool.read { db in
            try GRDB.Row.fetchOne(db, sql: "SELECT outcome, final_status, ended_at FROM call_records")
        }
        XCTAssertEqual(columns?["outcome"], "declined")
        XCTAssertEqual(columns?["final_status"], 603)
        XCTAssertEqual(columns?["ended_at"], record.endedAt?.timeIntervalSince1970)
    }

    func testABatchIsWrittenWholeOrNotAtAll() throws {
        try eachAdapter { opened in
        let store = opened.callRecords
        var bad = CallRecordFixture.record(3)
        bad.id = ""
        XCTAssertThrowsError(try store.save([CallRecordFixture.record(1), CallRecordFixture.record(2), bad])) { error in
            XCTAssertEqual(error as? StorageError, .invalidField(name: "id", reason: "must not be empty"))
        }
        XCTAssertEqual(try store.count(), 0)
        try store.save([CallRecordFixture.record(1), CallRecordFixture.record(2)])
        XCTAssertEqual(try store.count(), 2)
        }
    }

    func testListIsNewestFirstAndFiltersByCalleeAndOutcome() throws {
        try eachAdapter { opened in
        let store = opened.callRecords
        let base = CallRecordFixture.start
        try store.save([
            CallRecordFixture.record(1, callee: "alice", startedAt: base, outcome: .answered),
            CallRecordFixture.record(2, callee: "bob", startedAt: base.addingTimeInterval(10), outcome: .noAnswer),
            CallRecordFixture.record(3, callee: "alice", startedAt: base.addingTimeInterval(20), outcome: .noAnswer),
            CallRecordFixture.record(4, callee: "alice", startedAt: base.addingTimeInterval(30), outcome: nil),
        ])
        XCTAssertEqual(try store.list().map(\.id), ["rec-4", "rec-3", "rec-2", "rec-1"])
        XCTAssertEqual(try store.list(callee: "ALICE").map(\.id), ["rec-4", "rec-3", "rec-1"])
        XCTAssertEqual(try store.list(outcome: .noAnswer).map(\.id), ["rec-3", "rec-2"])
        XCTAssertEqual(try store.list(callee: "alice", outcome: .noAnswer).map(\.id), ["rec-3"])
        XCTAssertEqual(try store.list(callee: "carol"), [])
        XCTAssertEqual(try store.count(), 4)
        XCTAssertEqual(try store.count(callee: "alice"), 3)
        XCTAssertEqual(try store.count(outcome: .noAnswer), 2)
        XCTAssertEqual(try store.count(callee: "bob", outcome: .answered), 0)
        }
    }

    func testPagingAndItsValidation() throws {
        try eachAdapter { opened in
        let store = opened.callRecords
        try store.save((0..<5).map {
            CallRecordFixture.record($0, startedAt: CallRecordFixture.start.addingTimeInterval(Double($0)))
        })
        XCTAssertEqual(try store.list(limit: 2).map(\.id), ["rec-4", "rec-3"])
        XCTAssertEqual(try store.list(limit: 2, offset: 2).map(\.id), ["rec-2", "rec-1"])
        XCTAssertEqual(try store.list(limit: 2, offset: 4).map(\.id), ["rec-0"])
        XCTAssertEqual(try store.list(limit: 0), [])
        XCTAssertEqual(try store.list(offset: 9), [])
        XCTAssertThrowsError(try store.list(limit: -1)) {
            XCTAssertEqual($0 as? StorageError, .invalidField(name: "limit", reason: "must not be negative"))
        }
        XCTAssertThrowsError(try store.list(offset: -1)) {
            XCTAssertEqual($0 as? StorageError, .invalidField(name: "offset", reason: "must not be negative"))
        }
        }
    }

    func testFindAcceptsTheRecordIDThePairingIDOrTheCallIDNewestFirst() throws {
        try eachAdapter { opened in
        let store = opened.callRecords
        let first = CallRecordFixture.record(1)
        // The caller retried with the same Call-ID (a new record, a new pairing id).
        var retry = CallRecordFixture.record(2, startedAt: CallRecordFixture.start.addingTimeInterval(60))
        retry.callID = first.callID
        try store.save([first, retry])

        XCTAssertEqual(try store.find("rec-1")?.id, "rec-1")
        XCTAssertEqual(try store.find("pair-1")?.id, "rec-1")
        XCTAssertEqual(try store.find("pair-2")?.id, "rec-2")
        XCTAssertEqual(try store.find(first.callID)?.id, "rec-2", "the newest call with that Call-ID")
        XCTAssertNil(try store.find("nothing-like-it"))
        XCTAssertNil(try store.find(""))

        // A record id wins over another record's pairing id.
        var clash = CallRecordFixture.record(3)
        clash.pairingID = "rec-1"
        try store.save(clash)
        XCTAssertEqual(try store.find("rec-1")?.id, "rec-1")
        }
    }

    func testPurgeDeletesCallsStartedBeforeTheCutoffInChunks() throws {
        try eachAdapter { opened in
        let store = opened.callRecords
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let old = (0..<2500).map {
            CallRecordFixture.record($0, startedAt: now.addingTimeInterval(-31 * 86_400 - Double($0)))
        }
        let recent = (2500..<2503).map {
            CallRecordFixture.record($0, startedAt: now.addingTimeInterval(-Double($0 - 2500) * 86_400))
        }
        try store.save(old + recent)
        let edge = CallRecordFixture.record(9999, startedAt: now.addingTimeInterval(-30 * 86_400))
        try store.save(edge)

        XCTAssertEqual(try store.purge(startedBefore: now.addingTimeInterval(-30 * 86_400)), 2500,
                       "more than two chunks of 1000")
        XCTAssertEqual(Set(try store.list().map(\.id)), Set((recent + [edge]).map(\.id)),
                       "a call started exactly at the cutoff is kept")
        XCTAssertEqual(try store.purge(startedBefore: now.addingTimeInterval(-30 * 86_400)), 0)
        XCTAssertEqual(try store.purge(startedBefore: now.addingTimeInterval(1)), 4)
        XCTAssertEqual(try store.count(), 0)
        }
    }

    func testRecordsOutliveTheirUser() throws {
        let database = try TestDatabase.open(self)
        let users = UserStore(database: database)
        _ = try users.add(username: "alice", realm: "sipwake", ha1MD5: String(repeating: "a", count: 32),
                      ha1SHA256: String(repeating: "b", count: 64))
        let store = CallRecordStore(database: database)
        try store.save(CallRecordFixture.record(1, callee: "alice"))
        try users.remove(username: "alice")
        XCTAssertEqual(try store.find("pair-1")?.callee, "alice")
    }

    func testAnUnreadableRecordIsReportedNotCrashed() throws {
        let database = try TestDatabase.open(self)
        let store = CallRecordStore(database: database)
        try database.pool.write { db in
            try db.execute(sql: """
                INSERT INTO call_records (id, pairing_id, call_id, callee, caller, started_at, record)
                VALUES ('x', 'p', 'c', 'alice', 'bob', 0, '{"id": 5}')
                """)
        }
        let expected = StorageError.corruptRow(table: "call_records", detail: "record of call 'x' is not a readable call record")
        XCTAssertThrowsError(try store.find("x")) { error in
            XCTAssertEqual(error as? StorageError, expected)
        }
        // The list names the row too, so the operator can delete it.
        XCTAssertThrowsError(try store.list()) { error in
            XCTAssertEqual(error as? StorageError, expected)
        }
    }

    private func aliceWithTuple(_ database: SipwakeDatabase, createdAt: Date) throws -> (TupleStore, DeviceTuple) {
        _ = try UserStore(database: database).add(username: "alice", realm: "localhost", ha1MD5: String(repeating: "0", count: 32),
                                                  ha1SHA256: String(repeating: "0", count: 64))
        let tuples = TupleStore(database: database)
        let tuple = try tuples.report(username: "alice", selector: "s1", appIDCalls: "a", tokenCalls: "t1",
                                      appIDOther: nil, tokenOther: nil, platform: .ios, now: createdAt).tuple
        return (tuples, tuple)
    }

    private func record(_ id: String, tuple: Int64, sent: Date, answered: Date, result: String) -> CallRecord {
        var record = CallRecord(id: id, pairingID: id, callID: id, callee: "alice", caller: "sip:bob@x", startedAt: sent)
        record.pushes = [CallPushRecord(id: 1, tupleID: tuple, selector: "s1", verb: "NotifyIncomingCall", attempt: 1,
                                        sentAt: sent, completedAt: answered, httpStatus: 200, result: result)]
        return record
    }

    func testAnOlderPushAnswerNeverReplacesANewerOneOnTheTuple() throws {
        let database = try TestDatabase.open(self)
        let t0 = Date(timeIntervalSince1970: 1_700_000_000)
        let (tuples, tuple) = try aliceWithTuple(database, createdAt: t0)
        let store = CallRecordStore(database: database)
        try tuples.recordPushResult(id: tuple.id, sentAt: nil, at: t0.addingTimeInterval(10), status: 200, result: "newest")
        try store.save(record("older", tuple: tuple.id, sent: t0, answered: t0.addingTimeInterval(1), result: "older"))
        XCTAssertEqual(try tuples.get(id: tuple.id)?.lastPushResult, "newest")
        // In one batch, in either order, the later answer wins.
        try store.save([record("later", tuple: tuple.id, sent: t0, answered: t0.addingTimeInterval(20), result: "later"),
                        record("early", tuple: tuple.id, sent: t0, answered: t0.addingTimeInterval(15), result: "early")])
        XCTAssertEqual(try tuples.get(id: tuple.id)?.lastPushResult, "later")
        XCTAssertEqual(try tuples.get(id: tuple.id)?.lastPushAt, t0.addingTimeInterval(20))
    }

    func testAPushAnswerDoesNotLandOnANewDeviceThatReusedTheTupleID() throws {
        let database = try TestDatabase.open(self)
        let t0 = Date(timeIntervalSince1970: 1_700_000_000)
        // The tuple was deleted after the push went out (token gone) and a
        // new device, reported later, got the same id.
        let (tuples, newDevice) = try aliceWithTuple(database, createdAt: t0.addingTimeInterval(5))
        try CallRecordStore(database: database).save(
            record("stale", tuple: newDevice.id, sent: t0, answered: t0.addingTimeInterval(1), result: "token-gone"))
        XCTAssertNil(try tuples.get(id: newDevice.id)?.lastPushResult)
    }
}
