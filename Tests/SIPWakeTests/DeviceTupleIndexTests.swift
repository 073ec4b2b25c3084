import Foundation
import Logging
import Metrics
import Model
import Ports
import Prometheus
@testable import SIPWake
import SQLiteStorage
import Testing
import TestSupport

/// The call path's in-memory tuples: loaded whole, current before a write
/// of this process returns, never used while another process's write is
/// not applied (the caller reads the store), current again after a
/// catch-up, and read again whole when the feed lost track.
/// Real SQLite files; "another process" is a second connection pool on
/// the same file, as the CLI would open.
@Suite struct DeviceTupleIndexTests {
    final class Lab {
        let directory: URL
        let database: SipwakeDatabase
        /// Another process's connection to the same file.
        let other: SipwakeDatabase
        let users: UserStore

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("tuple-index-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let path = directory.appendingPathComponent("db.sqlite").path
            database = try SipwakeDatabase(path: path)
            other = try SipwakeDatabase(path: path)
            users = UserStore(database: database)
            for name in ["alice", "bob"] {
                try users.add(username: name, realm: "sipwake", ha1MD5: String(repeating: "0", count: 32),
                              ha1SHA256: String(repeating: "0", count: 64))
            }
        }

        deinit {
            try? database.close()
            try? other.close()
            try? FileManager.default.removeItem(at: directory)
        }

        var store: TupleStore { TupleStore(database: database) }
        var otherStore: TupleStore { TupleStore(database: other) }
    }

    private func index(_ lab: Lab) throws -> DeviceTupleIndex {
        DeviceTupleIndex(head: try SQLiteTupleChangeHead(database: lab.database),
                         logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() },
                         failures: Counter(label: "test_failures", factory: NOOPMetricsHandler.instance))
    }

    @discardableResult
    private func report(_ store: any TupleRepository, _ user: String, selector: String = "s1",
                        token: String) throws -> DeviceTuple {
        try store.report(username: user, selector: selector, appIDCalls: "com.example.voip", tokenCalls: token,
                         appIDOther: nil, tokenOther: nil, platform: .ios, provider: nil, now: Date()).tuple
    }

    @Test func itHoldsNothingUntilLoadedThenEveryUserWithTuples() throws {
        let lab = try Lab()
        try report(lab.store, "alice", token: "a-1")
        try report(lab.store, "alice", selector: "s2", token: "a-2")
        let index = try index(lab)
        #expect(index.tuples(of: "alice") == nil, "not loaded: the caller reads the store")
        #expect(try index.catchUp(from: lab.store) == -1, "the first catch-up reads every tuple")
        #expect(index.tuples(of: "alice")?.map(\.tokenCalls) == ["a-1", "a-2"])
        #expect(index.tuples(of: "bob") == [], "current: bob has no tuples")
        #expect(index.counts.users == 1 && index.counts.tuples == 2)
    }

    @Test func aWriteOfThisProcessIsInTheIndexWhenItReturns() throws {
        let lab = try Lab()
        let index = try index(lab)
        let tuples = IndexedTupleRepository(store: lab.store, index: index)
        try index.catchUp(from: tuples)
        let tuple = try report(tuples, "alice", token: "a-1")
        #expect(index.tuples(of: "alice")?.map(\.tokenCalls) == ["a-1"])
        try report(tuples, "bob", token: "a-1")
        #expect(index.tuples(of: "alice") == [], "the token moved to bob's slot with the same selector")
        #expect(index.tuples(of: "bob")?.map(\.tokenCalls) == ["a-1"])
        _ = tuple
        #expect(try tuples.deleteAll(username: "bob") == 1)
        #expect(index.tuples(of: "bob") == [])
        #expect(index.counts.tuples == 0)
    }

    @Test func anotherProcessesWriteIsSeenAtTheNextCatchUp() throws {
        let lab = try Lab()
        let old = try report(lab.store, "alice", token: "a-old")
        let index = try index(lab)
        try index.catchUp(from: lab.store)

        _ = try lab.otherStore.update(id: old.id, username: "alice", selector: "s1", appIDCalls: "com.example.voip",
                                      tokenCalls: "a-new", appIDOther: nil, tokenOther: nil, platform: .ios,
                                      provider: "acrobits")
        try report(lab.otherStore, "bob", token: "b-1")
        #expect(index.tuples(of: "alice") == nil, "behind the store: never the old token, the caller reads the store")
        #expect(index.tuples(of: "carol") == nil, "behind the store, for every user")
        #expect(index.askCatchUp() && !index.askCatchUp(), "a burst of calls asks for one catch-up")
        #expect(try index.catchUp(from: lab.store) == 2, "only the two changed users are read again")
        #expect(index.tuples(of: "alice")?.first?.tokenCalls == "a-new")
        #expect(index.askCatchUp(), "the catch-up started: the next call behind may ask again")
        #expect(index.tuples(of: "bob")?.first?.tokenCalls == "b-1")

        // A user removed by the other process takes her tuples with her.
        try UserStore(database: lab.other).remove(username: "alice")
        #expect(index.tuples(of: "alice") == nil)
        try index.catchUp(from: lab.store)
        #expect(index.tuples(of: "alice") == [])
        #expect(index.counts == (users: 1, tuples: 1))
    }

    @Test func anIndexTooFarBehindTheFeedReadsEverythingAgain() throws {
        let lab = try Lab()
        try report(lab.store, "alice", token: "a-1")
        let index = try index(lab)
        try index.catchUp(from: lab.store)
        // More changes than the feed keeps, by another process.
        for n in 0..<3 { try report(lab.otherStore, "bob", selector: "b\(n)", token: "b-\(n)") }
        try lab.other.pool.write { db in
            try db.execute(sql: "DELETE FROM device_tuples WHERE username = 'alice'")
            // 3 tuples × 3,400 new tokens: 10,200 changes.
            for _ in 0..<3400 {
                try db.execute(sql: """
                    UPDATE device_tuples SET token_calls = CASE WHEN token_calls LIKE '%-x'
                        THEN substr(token_calls, 1, length(token_calls) - 2) ELSE token_calls || '-x' END
                    WHERE username = 'bob'
                    """)
            }
        }
        #expect(index.tuples(of: "bob") == nil)
        #expect(try index.catchUp(from: lab.store) == -1, "the feed lost track: every tuple is read again")
        #expect(index.tuples(of: "alice") == [])
        #expect(index.tuples(of: "bob")?.count == 3)
    }

    @Test func aCatchUpThatCannotReadIsCountedAndWarnedOnceAMinute() throws {
        let lab = try Lab()
        try report(lab.store, "alice", token: "a-1")
        let registry = PrometheusCollectorRegistry()
        let log = LogRecorder()
        let index = DeviceTupleIndex(head: try SQLiteTupleChangeHead(database: lab.database), logger: log.logger,
                                     failures: Counter(label: "sipwake_tuple_failures_total",
                                                       factory: PrometheusMetricsFactory(registry: registry)))
        try index.catchUp(from: lab.store)
        try lab.database.close()
        for _ in 0..<3 { index.refresh(from: lab.store) }
        let counted = registry.emitToString().split(separator: "\n").first { $0.hasPrefix("sipwake_tuple_failures_total ") }
        #expect(counted == "sipwake_tuple_failures_total 3")
        let warnings = log.entries("device tuple index not refreshed: calls read the database meanwhile")
        #expect(warnings.map(\.level) == [.warning], "one warning for the three failures within a minute")
        #expect(warnings.first?.metadata["tuples.failures"] == "1")
        #expect(index.tuples(of: "alice")?.first?.tokenCalls == "a-1", "what it had is kept")
    }

    /// A feed that cannot be read at once (the file locked by a `VACUUM`, say).
    struct UnreadableHead: TupleChangeHead {
        func latest() -> Int64? { nil }
    }

    @Test func aFeedThatCannotBeReadSendsCallsToTheStoreAndIsCountedAndWarnedOnceAMinute() throws {
        let lab = try Lab()
        try report(lab.store, "alice", token: "a-1")
        let registry = PrometheusCollectorRegistry()
        let log = LogRecorder()
        let index = DeviceTupleIndex(head: UnreadableHead(), logger: log.logger,
                                     failures: Counter(label: "sipwake_tuple_failures_total",
                                                       factory: PrometheusMetricsFactory(registry: registry)))
        try index.catchUp(from: lab.store)
        for _ in 0..<3 { #expect(index.tuples(of: "alice") == nil, "not known to be current: the store is read") }
        let counted = registry.emitToString().split(separator: "\n").first { $0.hasPrefix("sipwake_tuple_failures_total ") }
        #expect(counted == "sipwake_tuple_failures_total 3")
        let warnings = log.entries("device tuple feed not readable: calls read the database meanwhile")
        #expect(warnings.map(\.level) == [.warning])
    }

    @Test func aWholeTableReadKeepsTheSameTuplesOfAUserAsAReadOfThatUser() throws {
        let lab = try Lab()
        try lab.database.pool.write { db in
            try db.execute(sql: """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(DeviceTupleIndex.tuplesPerUser + 5))
                INSERT INTO device_tuples (username, selector, app_id_calls, token_calls, created_at, last_seen_at)
                SELECT 'alice', 'sel-' || i, 'com.example.voip', 'tok-' || i, 0, 0 FROM n
                """)
        }
        let index = try index(lab)
        #expect(try index.catchUp(from: lab.store) == -1)
        let whole = try #require(index.tuples(of: "alice"))
        #expect(whole.count == DeviceTupleIndex.tuplesPerUser)
        #expect(index.counts.tuples == DeviceTupleIndex.tuplesPerUser)
        // A change of hers makes the next catch-up read her alone: the same tuples.
        try report(lab.otherStore, "alice", selector: "sel-1", token: "tok-1-new")
        #expect(try index.catchUp(from: lab.store) == 1)
        #expect(index.tuples(of: "alice")?.map(\.id) == whole.map(\.id))
    }
}
