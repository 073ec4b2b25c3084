import Foundation
import Logging
import Model
import Ports
import SQLiteStorage
import StorageSupport
import Testing

/// Each adapter (SQLite, PostgreSQL), used only through the ports the
/// server and the CLI name, against a real database: what a caller can rely
/// on from any adapter.
@Suite struct StorePortTests {
    private static let md5 = String(repeating: "a", count: 32)
    private static let sha256 = String(repeating: "b", count: 64)
    private static let now = Date(timeIntervalSince1970: 1_900_000_000)

    @Test(arguments: StoreAdapter.allCases) func usersThroughUserRepository(adapter: StoreAdapter) throws {
        try OpenedStores.with(adapter) { opened in
            let stores = opened.stores
            let users: any UserRepository = stores.users
            let before = try users.usersVersion()
            let alice = try users.add(username: "Alice", realm: "sipwake", ha1MD5: Self.md5, ha1SHA256: Self.sha256)
            #expect(alice.username == "alice")
            #expect(alice.wakeupHold)
            #expect(try users.usersVersion() != before)
            try users.setWakeupHold(username: "alice", false)
            #expect(try users.find(username: "ALICE")?.wakeupHold == false)
            try users.setPassword(username: "alice", realm: "other", ha1MD5: Self.md5, ha1SHA256: Self.sha256)
            #expect(try users.list().map(\.realm) == ["other"])
            #expect(throws: StorageError.userExists("alice")) {
                try users.add(username: "alice", realm: "r", ha1MD5: Self.md5, ha1SHA256: Self.sha256)
            }
            try users.remove(username: "alice")
            #expect(try users.find(username: "alice") == nil)
            #expect(throws: StorageError.userNotFound("alice")) { try users.remove(username: "alice") }
        }
    }

    @Test(arguments: StoreAdapter.allCases) func tuplesThroughTupleRepository(adapter: StoreAdapter) throws {
        try OpenedStores.with(adapter) { opened in
            let stores = opened.stores
            _ = try stores.users.add(username: "alice", realm: "r", ha1MD5: Self.md5, ha1SHA256: Self.sha256)
            let tuples: any TupleRepository = stores.tuples
            let reported = try tuples.report(
                username: "alice", selector: "s1", appIDCalls: "app", tokenCalls: "t1", appIDOther: nil,
                tokenOther: nil, platform: .ios, provider: nil, now: Self.now)
            #expect(reported.created)
            #expect(reported.tuple.provider == "acrobits")
            let again = try tuples.report(
                username: "alice", selector: "s1", appIDCalls: "app", tokenCalls: "t1", appIDOther: nil,
                tokenOther: nil, platform: nil, provider: "apns", now: Self.now)
            #expect(again.tuple.provider == "apns", "a report sets the provider that reaches the app")
            let kept = try tuples.report(
                username: "alice", selector: "s1", appIDCalls: "app", tokenCalls: "t1", appIDOther: nil,
                tokenOther: nil, platform: nil, provider: nil, now: Self.now)
            #expect(kept.tuple.provider == "apns", "no provider keeps the known one")
            let created = try tuples.create(
                username: "alice", selector: "s2", appIDCalls: nil, tokenCalls: nil, appIDOther: "app",
                tokenOther: "t2", platform: .android, provider: "fcm-v1", now: Self.now)
            #expect(created.provider == "fcm-v1")
            #expect(try tuples.get(id: created.id) == created)
            #expect(try tuples.count(username: "alice") == 2)
            #expect(try tuples.list(username: nil, limit: 1, offset: 1).map(\.id) == [created.id])

            let updated = try tuples.update(
                id: created.id, username: "alice", selector: "s2", appIDCalls: nil, tokenCalls: nil,
                appIDOther: "app", tokenOther: "t2", platform: nil, provider: "apns")
            #expect(updated.provider == "apns")
            #expect(updated.platform == nil)

            // A report keeps the provider the operator chose.
            let reportedAgain = try tuples.report(
                username: "alice", selector: "s2", appIDCalls: nil, tokenCalls: nil, appIDOther: "app",
                tokenOther: "t3", platform: nil, provider: nil, now: Self.now)
            #expect(!reportedAgain.created)
            #expect(reportedAgain.tuple.provider == "apns")

            try tuples.recordPushResult(id: reported.tuple.id, sentAt: nil, at: Self.now, status: 200, result: "ok")
            #expect(try tuples.get(id: reported.tuple.id)?.lastPushStatus == 200)

            #expect(try tuples.remove(username: "alice", selector: "s1"))
            #expect(try !tuples.remove(username: "alice", selector: "s1"))
            #expect(try tuples.delete(ids: [created.id, 999]) == 1)
            #expect(try !tuples.delete(id: created.id))
            _ = try tuples.report(
                username: "alice", selector: "s3", appIDCalls: "app", tokenCalls: "t4", appIDOther: nil,
                tokenOther: nil, platform: nil, provider: nil, now: Self.now)
            #expect(try tuples.purge(notSeenSince: Self.now.addingTimeInterval(1)) == 1)
            _ = try tuples.report(
                username: "alice", selector: "s4", appIDCalls: "app", tokenCalls: "t5", appIDOther: nil,
                tokenOther: nil, platform: nil, provider: nil, now: Self.now)
            #expect(try tuples.deleteAll(username: "alice") == 1)
        }
    }

    @Test(arguments: StoreAdapter.allCases) func aProviderThatCannotNameOneIsRefused(adapter: StoreAdapter) throws {
        try OpenedStores.with(adapter) { opened in
            let stores = opened.stores
            _ = try stores.users.add(username: "alice", realm: "r", ha1MD5: Self.md5, ha1SHA256: Self.sha256)
            for bad in ["", "FCM", "fcm_v1", "fcm v1", String(repeating: "a", count: 33), "fcm\u{0}"] {
                #expect(throws: StorageError.invalidField(
                    name: "provider", reason: "use 1 to 32 characters among lowercase letters, digits and '-'")) {
                    try stores.tuples.create(
                        username: "alice", selector: "s", appIDCalls: "app", tokenCalls: "t", appIDOther: nil,
                        tokenOther: nil, platform: nil, provider: bad, now: Self.now)
                }
            }
            #expect(try stores.tuples.count(username: nil) == 0)
            let longest = String(repeating: "a", count: 32)
            #expect(try stores.tuples.create(
                username: "alice", selector: "s", appIDCalls: "app", tokenCalls: "t", appIDOther: nil,
                tokenOther: nil, platform: nil, provider: longest, now: Self.now).provider == longest)
        }
    }

    @Test(arguments: StoreAdapter.allCases) func bindingsThroughTheJournalAndTheRepository(adapter: StoreAdapter) throws {
        try OpenedStores.with(adapter) { opened in
            let stores = opened.stores
            let journal: any BindingJournal = BindingWriter(
                store: opened.bindingBatch, logger: Logger(label: "test"))
            journal.start()
            let binding = Binding(
                aor: "alice", contact: "sip:alice@198.51.100.7:5060", callID: "c1", cseq: 1, q: nil,
                expiresAt: Self.now.addingTimeInterval(60),
                source: BindingSource(transport: .udp, host: "198.51.100.7", port: 5060),
                registeredAt: Self.now, updatedAt: Self.now)
            let committed = CommitWaiter()
            journal.submit([.added(binding)]) { committed.finish($0) }
            #expect(committed.wait() == true, "the completion comes after the commit")
            let bindings: any BindingRepository = stores.bindings
            let loaded = try bindings.loadAll()
            let listed = try bindings.list(aor: "ALICE")
            let count = try bindings.count()
            let deleted = try bindings.deleteExpired(before: Self.now.addingTimeInterval(60))
            #expect(loaded == [binding])
            #expect(listed == [binding])
            #expect(count == 1)
            #expect(deleted == 1)
            journal.shutdown()
            let refused = CommitWaiter()
            journal.submit([.added(binding)]) { refused.finish($0) }
            #expect(refused.wait() == false)
            let left = try bindings.count()
            #expect(left == 0)
        }
    }

    @Test(arguments: StoreAdapter.allCases) func callRecordsThroughTheSinkAndTheArchive(adapter: StoreAdapter) throws {
        try OpenedStores.with(adapter) { opened in
            let stores = opened.stores
            let sink: any CallRecordSink = CallRecordWriter(
                store: opened.callRecordBatch, logger: Logger(label: "test"))
            sink.start()
            var open = CallRecordFixture.record(1, outcome: nil)
            sink.save(open)
            sink.save(CallRecordFixture.record(2, callee: "bob"))
            sink.flush()
            let archive: any CallRecordArchive = stores.callRecords
            #expect(try archive.count(callee: nil, outcome: nil) == 2)
            #expect(try archive.list(callee: "BOB", outcome: .answered, limit: 10, offset: 0).map(\.id) == ["rec-2"])
            #expect(try archive.find("pair-1") == open)
            let closed = try archive.closeOpenRecords()
            if stores.isShared {
                // The node that saved it is running: its call is left alone
                // (a stopped node's: PostgreSQLCallRecordNodeTests).
                #expect(closed.closed == 0 && closed.unreadable.isEmpty)
                #expect(try archive.find("rec-1")?.outcome == nil)
            } else {
                #expect(closed.closed == 1 && closed.unreadable.isEmpty)
                open = try #require(try archive.find("rec-1"))
                #expect(open.outcome == .interrupted)
            }
            #expect(try archive.purge(startedBefore: CallRecordFixture.start.addingTimeInterval(1)) == 2)
            sink.shutdown()
        }
    }
}
