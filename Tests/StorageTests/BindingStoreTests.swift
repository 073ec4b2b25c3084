import Foundation
import GRDB
import Model
import Registrar
import SQLiteStorage
import StorageSupport
import XCTest

/// The binding store; the tests that use `eachAdapter` run on SQLite and PostgreSQL.
final class BindingStoreTests: XCTestCase {
    private func eachAdapter(_ body: (OpenedStores) throws -> Void) throws {
        for adapter in StoreAdapter.allCases {
            try OpenedStores.with(adapter, body)
        }
    }

    func testStorageKeyForms() {
        XCTAssertEqual(BindingKey.instance("<urn:uuid:abc>", regID: 1).storageKey, "instance:<urn:uuid:abc>;reg-id=1")
        XCTAssertEqual(BindingKey.instance("<urn:uuid:abc>", regID: nil).storageKey, "instance:<urn:uuid:abc>")
        XCTAssertEqual(
            BindingFixture.contact(contact: "SIP:Bob@EXAMPLE.com:5060").key.storageKey, "contact:sip:Bob@example.com:5060")
    }

    func testAddRefreshRemoveRoundTrip() throws {
        let database = try TestDatabase.open(self)
        let store = BindingStore(database: database)
        let alice = BindingFixture.instance(
            aor: "alice", regID: 1, q: nil, path: ["<sip:edge1.example.com;lr>", "<sip:10.0.0.1:5060;lr;ob>"])
        let bob = BindingFixture.contact(aor: "bob", q: 500)

        try store.apply([.added(alice), .added(bob)])
        let loaded = try store.loadAll()
        XCTAssertEqual(loaded, [BindingFixture.stored(alice), BindingFixture.stored(bob)])
        XCTAssertNil(loaded[0].q)
        XCTAssertNil(loaded[0].source.connectionID)
        XCTAssertEqual(loaded[0].instanceID, "<urn:uuid:00000000-0000-0000-0000-000000000001>")
        XCTAssertEqual(loaded[0].path, ["<sip:edge1.example.com;lr>", "<sip:10.0.0.1:5060;lr;ob>"])
        try database.pool.read { db in
            XCTAssertEqual(
                try String.fetchOne(db, sql: "SELECT path FROM bindings WHERE aor = 'alice'"),
                #"["<sip:edge1.example.com;lr>","<sip:10.0.0.1:5060;lr;ob>"]"#)
            XCTAssertEqual(
                try String.fetchOne(db, sql: "SELECT binding_key FROM bindings WHERE aor = 'alice'"),
                "instance:<urn:uuid:00000000-0000-0000-0000-000000000001>;reg-id=1")
        }

        // Same device on a new network: same instance key, new contact and expiry.
        var aliceMoved = alice
        aliceMoved.contact = "sip:alice@192.0.2.44:40000;transport=tls"
        aliceMoved.source = BindingSource(transport: .tls, host: "192.0.2.44", port: 40000)
        aliceMoved.cseq = 2
        aliceMoved.q = 1000
        aliceMoved.path = []
        aliceMoved.expiresAt = BindingFixture.t0.addingTimeInterval(7200)
        aliceMoved.updatedAt = BindingFixture.t0.addingTimeInterval(60)
        // A device without instance id changing its Contact: a new key.
        var bobMoved = bob
        bobMoved.contact = "sip:bob@203.0.113.99:5070"
        bobMoved.cseq = 8
        bobMoved.updatedAt = BindingFixture.t0.addingTimeInterval(30)

        try store.apply([.refreshed(old: alice, new: aliceMoved), .refreshed(old: bob, new: bobMoved)])
        XCTAssertEqual(try store.loadAll(), [aliceMoved, bobMoved].map(BindingFixture.stored))
        XCTAssertEqual(try store.count(), 2, "the old Contact row of bob is gone")

        try store.apply([.removed(aliceMoved, reason: .unregistered)])
        XCTAssertEqual(try store.loadAll(), [BindingFixture.stored(bobMoved)])
        try store.apply([.removed(bobMoved, reason: .expired), .removed(bobMoved, reason: .expired)])
        XCTAssertEqual(try store.loadAll(), [], "removing a missing row is not an error")
    }

    func testAddedAndRefreshedOverwriteADriftedRow() throws {
        try eachAdapter { opened in
        let store = opened.bindingStore
        let first = BindingFixture.instance(cseq: 1)
        try store.apply([.added(first)])
        var second = first
        second.cseq = 9
        second.callID = "call-2"
        try store.apply([.added(second)])
        XCTAssertEqual(try store.loadAll(), [BindingFixture.stored(second)])

        let missing = BindingFixture.instance(aor: "dave")
        var missingNew = missing
        missingNew.cseq = 3
        try store.apply([.refreshed(old: missing, new: missingNew)])
        XCTAssertEqual(try store.list(aor: "dave"), [BindingFixture.stored(missingNew)])
        }
    }

    func testListFiltersByAORAndOrdersByUpdatedAt() throws {
        try eachAdapter { opened in
        let store = opened.bindingStore
        var later = BindingFixture.instance(aor: "alice", uuid: "later")
        later.updatedAt = BindingFixture.t0.addingTimeInterval(100)
        let earlier = BindingFixture.instance(aor: "alice", uuid: "earlier")
        let zed = BindingFixture.contact(aor: "zed")
        let bob = BindingFixture.contact(aor: "bob")
        try store.apply([.added(zed), .added(later), .added(bob), .added(earlier)])

        XCTAssertEqual(try store.list(aor: "ALICE"), [earlier, later].map(BindingFixture.stored))
        XCTAssertEqual(try store.list(aor: "nobody"), [])
        XCTAssertEqual(try store.list(aor: nil), [earlier, later, bob, zed].map(BindingFixture.stored))
        XCTAssertEqual(try store.loadAll(), try store.list(aor: nil))
        }
    }

    func testBindingsSurviveCloseAndReopenWithTheSameExpiry() throws {
        let path = try TestDatabase.makePath(self)
        let now = Date()
        var live = BindingFixture.instance(aor: "erin")
        live.expiresAt = now.addingTimeInterval(3600)
        live.updatedAt = now
        let exact = BindingFixture.contact(aor: "frank", expiresIn: 123.5)

        let first = try SipwakeDatabase(path: path)
        try BindingStore(database: first).apply([.added(live), .added(exact)])
        try first.close()

        let second = try SipwakeDatabase(path: path)
        defer { try? second.close() }
        let loaded = try BindingStore(database: second).loadAll()
        XCTAssertEqual(loaded.map(\.aor), ["erin", "frank"])
        // Times in whole or binary-fraction unix seconds come back exactly.
        XCTAssertEqual(loaded[1], BindingFixture.stored(exact))
        XCTAssertEqual(loaded[1].expiresAt, BindingFixture.t0.addingTimeInterval(123.5))
        // An arbitrary Date() goes through a REAL of unix seconds: within a microsecond.
        XCTAssertEqual(loaded[0].expiresAt.timeIntervalSince1970, live.expiresAt.timeIntervalSince1970, accuracy: 1e-6)
        XCTAssertEqual(loaded[0].updatedAt.timeIntervalSince1970, now.timeIntervalSince1970, accuracy: 1e-6)
    }

    func testABatchThatFailsMidwayWritesNothing() throws {
        let database = try TestDatabase.open(self)
        let store = BindingStore(database: database)
        let alice = BindingFixture.instance(aor: "alice")
        try store.apply([.added(alice)])
        let before = try store.loadAll()

        var aliceRefreshed = alice
        aliceRefreshed.cseq = 99
        let bad = BindingFixture.contact(aor: "bob", q: 1001)   // violates CHECK (q BETWEEN 0 AND 1000)
        XCTAssertThrowsError(try store.apply([
            .refreshed(old: alice, new: aliceRefreshed),
            .added(BindingFixture.contact(aor: "carol")),
            .added(bad),
            .added(BindingFixture.contact(aor: "dave")),
        ])) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .SQLITE_CONSTRAINT)
        }
        XCTAssertEqual(try store.loadAll(), before)

        // A constraint added by hand: deletes of alice abort.
        try database.pool.write { db in
            try db.execute(sql: """
                CREATE TEMP TRIGGER refuse_alice_delete BEFORE DELETE ON bindings
                WHEN old.aor = 'alice' BEGIN SELECT RAISE(ABORT, 'refused by test'); END
                """)
        }
        XCTAssertThrowsError(try store.apply([
            .added(BindingFixture.contact(aor: "carol")),
            .removed(alice, reason: .expired),
        ]))
        XCTAssertEqual(try store.loadAll(), before)
    }

    func testOneBatchWithSeveralChangesOfOneBindingLeavesItsLastState() throws {
        try eachAdapter { opened in
            let store = opened.bindingStore
            let alice = BindingFixture.instance(aor: "alice")
            var aliceAgain = alice
            aliceAgain.cseq = 2
            var aliceLast = alice
            aliceLast.cseq = 3
            let bob = BindingFixture.contact(aor: "bob")
            var bobMoved = bob
            bobMoved.contact = "sip:bob@203.0.113.77:5062"
            let carol = BindingFixture.contact(aor: "carol")
            try store.apply([
                .added(alice), .refreshed(old: alice, new: aliceAgain), .refreshed(old: aliceAgain, new: aliceLast),
                .added(bob), .refreshed(old: bob, new: bobMoved),
                .added(carol), .removed(carol, reason: .unregistered), .added(carol),
                .removed(carol, reason: .expired),
            ])
            XCTAssertEqual(try store.loadAll(), [aliceLast, bobMoved].map(BindingFixture.stored), "\(opened.adapter)")
        }
    }

    func testDeleteExpired() throws {
        try eachAdapter { opened in
        let store = opened.bindingStore
        let soon = BindingFixture.instance(aor: "a", expiresIn: 10)
        let late = BindingFixture.instance(aor: "b", expiresIn: 1000)
        try store.apply([.added(soon), .added(late)])
        XCTAssertEqual(try store.deleteExpired(before: BindingFixture.t0.addingTimeInterval(10)), 1)
        XCTAssertEqual(try store.loadAll(), [BindingFixture.stored(late)])
        }
    }

    func testOperatorDeletesJoinTheDeletionFeedAndTheServersOwnWritesDoNot() throws {
        try eachAdapter { opened in
        let store = opened.bindingStore
        let phone = BindingFixture.contact(aor: "bob", contact: "sip:bob@203.0.113.5:5062")
        let desk = BindingFixture.contact(aor: "bob", contact: "sip:bob@203.0.113.6:5062")
        let alice = BindingFixture.instance(aor: "alice")
        try store.apply([.added(phone), .added(desk), .added(alice)])
        try store.apply([.removed(desk, reason: .unregistered)])
        try store.apply([.added(desk)])
        XCTAssertEqual(try store.deletionsHead(), 0, "REGISTERs and expiry are not operator deletes")

        XCTAssertFalse(try store.delete(aor: "bob", contact: "sip:bob@203.0.113.9:5062"))
        XCTAssertFalse(try store.delete(aor: "carol", contact: phone.contact))
        XCTAssertEqual(try store.deletionsHead(), 0, "nothing deleted, nothing fed")
        XCTAssertTrue(try store.delete(aor: "BOB", contact: "SIP:bob@203.0.113.5:5062"),
                      "the AOR and the contact's scheme and host compare case-insensitively")
        XCTAssertEqual(try store.list(aor: "bob").map(\.contact), [desk.contact])
        XCTAssertEqual(try store.deleteAll(aor: "Alice"), 1)
        XCTAssertEqual(try store.deleteAll(aor: "alice"), 0)
        XCTAssertEqual(try store.list(aor: "alice"), [])

        let feed = try store.deletions(after: 0, limit: 10)
        XCTAssertEqual(feed.through, 2)
        XCTAssertEqual(feed.deletions, [
            BindingDeletion(aor: "bob", key: phone.key, updatedAt: phone.updatedAt),
            BindingDeletion(aor: "alice", key: alice.key, updatedAt: alice.updatedAt),
        ])
        XCTAssertEqual(try store.deletions(after: 1, limit: 10).deletions.map(\.aor), ["alice"])
        XCTAssertEqual(try store.deletions(after: 0, limit: 1).through, 1)
        XCTAssertEqual(try store.deletions(after: 2, limit: 10), BindingDeletions(deletions: [], through: 2))
        XCTAssertEqual(try store.deletionsHead(), 2)

        _ = try opened.stores.users.add(username: "bob", realm: "localhost", ha1MD5: String(repeating: "a", count: 32), ha1SHA256: String(repeating: "b", count: 64))
        try opened.stores.users.remove(username: "bob")
        XCTAssertEqual(try store.deletions(after: 2, limit: 10).deletions.map(\.key), [desk.key],
                       "removing a user feeds its bindings' deletion too")
        }
    }

    func testADeletionCoversTheDeletedVersionButNotALaterRefresh() {
        let binding = BindingFixture.instance(aor: "alice")
        let deletion = BindingDeletion(aor: "alice", key: binding.key, updatedAt: binding.updatedAt)
        XCTAssertTrue(deletion.covers(binding))
        var refreshed = binding
        refreshed.updatedAt = binding.updatedAt.addingTimeInterval(1)
        XCTAssertFalse(deletion.covers(refreshed), "the device registered again after the delete")
        XCTAssertFalse(deletion.covers(BindingFixture.instance(aor: "bob")))
    }
}
