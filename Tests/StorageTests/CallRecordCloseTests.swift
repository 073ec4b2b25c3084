import Foundation
import GRDB
import Model
import SQLiteStorage
import Testing

/// `CallRecordStore.closeOpenRecords()`: at start, the records a crash left
/// open are closed `interrupted`, ended at the last thing known about the call.
@Suite struct CallRecordCloseTests {
    static let t0 = Date(timeIntervalSince1970: 1_795_000_000.25)

    /// A database in a fresh temporary directory, removed when `body` returns.
    private func withDatabase(_ body: (SipwakeDatabase) throws -> Void) throws {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("sipwake-close-tests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let database = try SipwakeDatabase(path: root.appendingPathComponent("sipwake.sqlite").path)
        defer { try? database.close() }
        try body(database)
    }

    @Test func openRecordsAreClosedInterruptedAtTheLastThingKnown() throws {
        try withDatabase { database in
            let store = CallRecordStore(database: database)
            let answered = CallRecordFixture.record(1, outcome: .answered)
            // Pending: its latest time is a push answer at +2.5 s.
            var pending = CallRecord(id: "rec-open", pairingID: "pair-open", callID: "call-open", callee: "alice",
                                     caller: "sip:bob@example.com", startedAt: Self.t0)
            pending.events = [CallEventRecord(at: Self.t0, event: "invite received"),
                              CallEventRecord(at: Self.t0.addingTimeInterval(1), event: "push sent")]
            pending.pushes = [CallPushRecord(id: 1, tupleID: 7, selector: "s", verb: "NotifyIncomingCall", attempt: 1,
                                             sentAt: Self.t0.addingTimeInterval(1),
                                             completedAt: Self.t0.addingTimeInterval(2.5), httpStatus: 200,
                                             result: "delivered")]
            // Pending with nothing after its start.
            let bare = CallRecord(id: "rec-bare", pairingID: "pair-bare", callID: "call-bare", callee: "bob",
                                  caller: "sip:carol@example.com", startedAt: Self.t0.addingTimeInterval(60))
            try store.save([answered, pending, bare])

            let result = try store.closeOpenRecords()
            #expect(result.closed == 2)
            #expect(result.unreadable.isEmpty)

            let closed = try #require(try store.find("rec-open"))
            #expect(closed.outcome == .interrupted)
            #expect(closed.endedAt == Self.t0.addingTimeInterval(2.5))
            #expect(closed.finalStatus == nil, "nobody knows what the caller got")
            #expect(closed.pushes == pending.pushes)
            #expect(closed.events.last?.event == "call ended")
            #expect(closed.events.last?.at == Self.t0.addingTimeInterval(2.5))
            #expect(closed.events.last?.detail?.contains("interrupted") == true)
            let closedBare = try #require(try store.find("rec-bare"))
            #expect(closedBare.outcome == .interrupted)
            #expect(closedBare.endedAt == bare.startedAt)
            #expect(try store.find("rec-1") == answered, "ended calls are left alone")

            // The columns lists filter on agree with the record.
            #expect(try store.list(outcome: .interrupted).map(\.id) == ["rec-bare", "rec-open"])
            let row = try database.pool.read { db in
                try Row.fetchOne(db, sql: "SELECT outcome, ended_at FROM call_records WHERE id = 'rec-open'")
            }
            #expect(row?["outcome"] == "interrupted")
            #expect(row?["ended_at"] == Self.t0.addingTimeInterval(2.5).timeIntervalSince1970)

            #expect(try store.closeOpenRecords().closed == 0, "nothing is left open")
        }
    }

    @Test func anUnreadableOpenRecordIsNamedAndLeftAlone() throws {
        try withDatabase { database in
            let store = CallRecordStore(database: database)
            try store.save(CallRecordFixture.record(2, outcome: nil))
            try database.pool.write { db in
                try db.execute(sql: """
                    INSERT INTO call_records (id, pairing_id, call_id, callee, caller, started_at, record)
                    VALUES ('rec-bad', 'p', 'c', 'alice', 'bob', 0, '{"not": "a record"}')
                    """)
            }
            let result = try store.closeOpenRecords()
            #expect(result.closed == 1)
            #expect(result.unreadable == ["rec-bad"])
            #expect(try store.find("rec-2")?.outcome == .interrupted)
            let bad = try database.pool.read { db in
                try Row.fetchOne(db, sql: "SELECT outcome, ended_at, record FROM call_records WHERE id = 'rec-bad'")
            }
            #expect(bad?["outcome"] as String? == nil)
            #expect(bad?["record"] == "{\"not\": \"a record\"}")
        }
    }

    @Test func theLastThingKnownIsTheLatestTimeInTheRecord() {
        var record = CallRecord(id: "r", pairingID: "p", callID: "c", callee: "alice", caller: "sip:bob@x",
                                startedAt: Self.t0)
        #expect(record.lastKnownAt == Self.t0)
        record.events = [CallEventRecord(at: Self.t0.addingTimeInterval(1), event: "push sent")]
        #expect(record.lastKnownAt == Self.t0.addingTimeInterval(1))
        record.branches = [CallBranchRecord(id: 1, contact: "sip:a@x", reason: "registered",
                                            startedAt: Self.t0.addingTimeInterval(0.5),
                                            provisionalAt: Self.t0.addingTimeInterval(3))]
        #expect(record.lastKnownAt == Self.t0.addingTimeInterval(3))
    }
}
