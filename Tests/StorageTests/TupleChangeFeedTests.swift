import Foundation
import GRDB
import Model
import Ports
import SQLiteStorage
import XCTest

/// The device-tuple change feed the server's in-memory index follows: every
/// write that changes what a push needs is a change of its user, whoever
/// writes it; a push's answer is not; a reader too far behind is told so.
final class TupleChangeFeedTests: XCTestCase {
    private let t0 = Date(timeIntervalSince1970: 1_790_000_000)

    private func makeStores() throws -> (TupleStore, UserStore, SipwakeDatabase) {
        let database = try TestDatabase.open(self)
        let users = UserStore(database: database)
        try Self.addUsers(users)
        return (TupleStore(database: database), users, database)
    }

    private static func addUsers(_ users: any UserRepository) throws {
        for name in ["alice", "bob", "carol"] {
            _ = try users.add(username: name, realm: "sipwake", ha1MD5: String(repeating: "0", count: 32),
                          ha1SHA256: String(repeating: "0", count: 64))
        }
    }

    /// Runs `body` with the tuple and user stores of each adapter.
    private func eachAdapter(_ body: (any TupleRepository, any UserRepository) throws -> Void) throws {
        for adapter in StoreAdapter.allCases {
            try OpenedStores.with(adapter) { opened in
                try Self.addUsers(opened.stores.users)
                try body(opened.stores.tuples, opened.stores.users)
            }
        }
    }

    private func report(_ store: any TupleRepository, _ user: String, selector: String = "s1",
                        token: String = "token-1") throws -> DeviceTuple {
        try store.report(username: user, selector: selector, appIDCalls: "com.example.voip", tokenCalls: token,
                         appIDOther: nil, tokenOther: nil, platform: .ios, provider: nil, now: t0).tuple
    }

    func testAFreshReaderIsToldToReadEverythingAndThenSeesNothingNew() throws {
        try eachAdapter { store, _ in
        _ = try report(store, "alice")
        let first = try store.changes(after: -1, limit: 100)
        XCTAssertTrue(first.missed)
        XCTAssertEqual(first.through, 1)
        let next = try store.changes(after: first.through, limit: 100)
        XCTAssertEqual(next, TupleChanges(usernames: [], through: 1, missed: false, more: false))
        }
    }

    func testEveryWriteThatChangesAPushIsAChangeOfItsUsers() throws {
        try eachAdapter { store, users in
        var seen = try store.changes(after: -1, limit: 100).through

        func changed() throws -> Set<String> {
            let changes = try store.changes(after: seen, limit: 100)
            XCTAssertFalse(changes.missed)
            seen = changes.through
            return changes.usernames
        }

        let alice = try report(store, "alice")
        XCTAssertEqual(try changed(), ["alice"], "a report")
        _ = try report(store, "alice", token: "token-2")
        XCTAssertEqual(try changed(), ["alice"], "a new token")
        _ = try report(store, "alice", token: "token-2")
        XCTAssertEqual(try changed(), [], "the app reporting the same tokens at its next start")
        // The move rule: bob's slot takes alice's token with the same selector.
        _ = try report(store, "bob", token: "token-2")
        XCTAssertEqual(try changed(), ["alice", "bob"], "the token moved from alice to bob")
        let carol = try store.create(username: "carol", selector: "s9", appIDCalls: "com.example.voip",
                                     tokenCalls: "token-9", appIDOther: nil, tokenOther: nil, platform: .android,
                                     provider: "acrobits", now: t0)
        XCTAssertEqual(try changed(), ["carol"], "an operator's create")
        _ = try store.update(id: carol.id, username: "alice", selector: "s9", appIDCalls: "com.example.voip",
                             tokenCalls: "token-9", appIDOther: nil, tokenOther: nil, platform: .android,
                             provider: "acrobits")
        XCTAssertEqual(try changed(), ["carol", "alice"], "a tuple given to another user")

        try store.recordPushResult(id: carol.id, sentAt: nil, at: t0, status: 200, result: "ok")
        XCTAssertEqual(try changed(), [], "a push's answer changes nothing a push needs")

        XCTAssertTrue(try store.remove(username: "alice", selector: "s9"))
        XCTAssertEqual(try changed(), ["alice"], "the Account Removal Reporter")
        _ = try report(store, "carol")
        try users.remove(username: "carol")
        XCTAssertEqual(try changed(), ["carol"], "a user removed with her tuples")
        _ = alice
        }
    }

    func testAReaderReadsInStepsAndIsToldWhenMoreFollow() throws {
        try eachAdapter { store, _ in
        let start = try store.changes(after: -1, limit: 10).through
        for n in 0..<5 { _ = try report(store, "alice", selector: "s\(n)", token: "t\(n)") }
        let first = try store.changes(after: start, limit: 3)
        XCTAssertEqual(first.through, start + 3)
        XCTAssertTrue(first.more)
        let rest = try store.changes(after: first.through, limit: 3)
        XCTAssertEqual(rest.through, start + 5)
        XCTAssertFalse(rest.more)
        XCTAssertThrowsError(try store.changes(after: start, limit: 0))
        }
    }

    func testAReaderFurtherBehindThanTheFeedKeepsIsToldToReadEverything() throws {
        let (store, _, database) = try makeStores()
        let start = try store.changes(after: -1, limit: 10).through
        _ = try report(store, "alice")
        // More changes in one transaction than the feed keeps (a large purge looks like this).
        try database.pool.write { db in
            try db.execute(sql: """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10050)
                INSERT INTO device_tuples (username, selector, app_id_calls, token_calls, created_at, last_seen_at)
                SELECT 'bob', 'sel-' || i, 'com.example.voip', 'tok-' || i, 0, 0 FROM n
                """)
        }
        let behind = try store.changes(after: start, limit: 100)
        XCTAssertTrue(behind.missed, "the reader's next change was pruned")
        XCTAssertEqual(behind.usernames, [])
        XCTAssertEqual(behind.through, start + 10051)
        let count = try database.pool.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM device_tuple_changes") }
        XCTAssertLessThanOrEqual(count ?? 0, 10_001, "the feed stays bounded")
        let recent = try store.changes(after: behind.through - 5, limit: 100)
        XCTAssertEqual(recent.usernames, ["bob"])
        XCTAssertFalse(recent.missed)
    }

    func testAReaderAheadOfTheDatabaseIsToldToReadEverything() throws {
        try eachAdapter { store, _ in
        _ = try report(store, "alice")
        let ahead = try store.changes(after: 500, limit: 10)
        XCTAssertTrue(ahead.missed, "a database replaced by an older copy")
        XCTAssertEqual(ahead.through, 1)
        }
    }
}
