import Foundation
import GRDB
import Model
import Ports
import SQLiteStorage
import TestSupport
import XCTest

final class TupleStoreTests: XCTestCase {
    private let md5 = "0123456789abcdef0123456789abcdef"
    private let sha256 = String(repeating: "0123456789abcdef", count: 4)

    private let t0 = Date(timeIntervalSince1970: 1_790_000_000)

    private func makeStores() throws -> (TupleStore, UserStore, SipwakeDatabase) {
        let database = try TestDatabase.open(self)
        let users = UserStore(database: database)
        try users.add(username: "alice", realm: "sipwake", ha1MD5: md5, ha1SHA256: sha256)
        try users.add(username: "bob", realm: "sipwake", ha1MD5: md5, ha1SHA256: sha256)
        return (TupleStore(database: database), users, database)
    }

    /// An Android report of the FCM token, in the calls pair (and in the
    /// other pair too when `bothPairs`).
    @discardableResult
    private func reportPixel(
        _ store: TupleStore, user: String = "alice", selector: String = pixelSelector, bothPairs: Bool = false,
        platform: DevicePlatform? = .android, at: Date? = nil
    ) throws -> (tuple: DeviceTuple, created: Bool) {
        try store.report(
            username: user, selector: selector, appIDCalls: app, tokenCalls: fcmToken,
            appIDOther: bothPairs ? app : nil, tokenOther: bothPairs ? fcmToken : nil, platform: platform, now: at ?? t0)
    }

    /// The iOS 13+ report: both pairs.
    @discardableResult
    private func reportIPhone(
        _ store: TupleStore, user: String = "alice", selector: String? = nil,
        voip: String? = nil, other: String? = nil, at: Date? = nil
    ) throws -> (tuple: DeviceTuple, created: Bool) {
        try store.report(
            username: user, selector: selector ?? iPhoneSelector,
            appIDCalls: voipApp, tokenCalls: voip ?? voipToken, appIDOther: app, tokenOther: other ?? apnsToken,
            platform: .ios, now: at ?? t0)
    }

    func testAReportCreatesThenARepeatedReportUpdatesTokensAndLastSeen() throws {
        let (store, _, _) = try makeStores()
        let first = try reportIPhone(store)
        XCTAssertTrue(first.created)
        XCTAssertEqual(first.tuple.username, "alice")
        XCTAssertEqual(first.tuple.selector, iPhoneSelector)
        XCTAssertEqual(first.tuple.tokenCalls, voipToken)
        XCTAssertEqual(first.tuple.tokenOther, apnsToken)
        XCTAssertEqual(first.tuple.platform, .ios)
        XCTAssertEqual(first.tuple.createdAt, t0)
        XCTAssertEqual(first.tuple.lastSeenAt, t0)
        XCTAssertNil(first.tuple.lastPushAt)

        let newVoip = String(voipToken.reversed())
        let later = t0.addingTimeInterval(3600)
        // Same user (any case) and selector; platform not said this time.
        let second = try store.report(
            username: "ALICE", selector: iPhoneSelector, appIDCalls: voipApp, tokenCalls: newVoip,
            appIDOther: nil, tokenOther: nil, platform: nil, now: later)
        XCTAssertFalse(second.created)
        XCTAssertEqual(second.tuple.id, first.tuple.id)
        XCTAssertEqual(second.tuple.tokenCalls, newVoip)
        XCTAssertNil(second.tuple.appIDOther, "a pair not reported is cleared")
        XCTAssertNil(second.tuple.tokenOther)
        XCTAssertEqual(second.tuple.platform, .ios, "a report without platform keeps the known one")
        XCTAssertEqual(second.tuple.createdAt, t0)
        XCTAssertEqual(second.tuple.lastSeenAt, later)
        XCTAssertEqual(try store.count(), 1)
        XCTAssertEqual(try store.get(id: first.tuple.id), second.tuple)
    }

    func testSeveralDevicesOfOneUserAreAllKept() throws {
        let (store, _, _) = try makeStores()
        let iPhone = try reportIPhone(store).tuple
        let pixel = try reportPixel(store, bothPairs: true).tuple
        XCTAssertEqual(try store.list(username: "alice", limit: 10, offset: 0), [iPhone, pixel])
        XCTAssertEqual(try store.count(username: "alice"), 2)
        XCTAssertEqual(try store.count(username: "bob"), 0)
        XCTAssertEqual(try store.list(username: "no such user", limit: 10, offset: 0), [])
    }

    func testTheSameTokenWithAnotherSelectorIsASecondAccountAndIsKept() throws {
        let (store, _, _) = try makeStores()
        let alices = try reportIPhone(store).tuple
        // The phone carries bob's account too, in another slot (selector), same tokens.
        let bobs = try reportIPhone(store, user: "bob", selector: pixelSelector, at: t0.addingTimeInterval(60))
        XCTAssertTrue(bobs.created)
        XCTAssertEqual(try store.get(id: alices.id), alices, "alice's account on that device stays")
        XCTAssertEqual(try store.list(username: "bob", limit: 10, offset: 0), [bobs.tuple])
        XCTAssertEqual(try store.count(username: nil), 2)
    }

    func testTheSameSlotReportedByAnotherUserMoves() throws {
        let (store, _, _) = try makeStores()
        let alices = try reportIPhone(store).tuple
        // The slot (same selector, same tokens) now holds bob's account.
        let bobs = try reportIPhone(store, user: "bob", selector: iPhoneSelector, at: t0.addingTimeInterval(60))
        XCTAssertTrue(bobs.created)
        XCTAssertNil(try store.get(id: alices.id), "alice's row held the slot: deleted")
        XCTAssertEqual(try store.list(username: "alice", limit: 10, offset: 0), [])
        XCTAssertEqual(try store.list(username: "bob", limit: 10, offset: 0), [bobs.tuple])
    }

    func testATokenMovesFromAnotherSelectorOfTheSameUserAndAcrossPairs() throws {
        let (store, users, _) = try makeStores()
        try users.add(username: "carol", realm: "sipwake", ha1MD5: md5, ha1SHA256: sha256)
        let old = try reportIPhone(store).tuple
        let unrelated = try reportPixel(store, user: "bob", selector: iPhoneSelector).tuple
        // Same device, account re-added (new selector), reporting only the
        // "other" pair: alice's old selector held that token, so it goes.
        let newSelector = "12869E0E6E553673C54F29105A0647204C416A2A:00000002"
        let moved = try store.report(
            username: "alice", selector: newSelector, appIDCalls: nil, tokenCalls: nil,
            appIDOther: app, tokenOther: apnsToken, platform: .ios, now: t0).tuple
        XCTAssertNil(try store.get(id: old.id), "alice's old selector held the apns token")
        XCTAssertEqual(try store.get(id: unrelated.id), unrelated, "a row sharing no token is kept")
        // Bob's "calls" token reported in the same slot as carol's "other" token: it moves too.
        let across = try store.report(
            username: "carol", selector: iPhoneSelector, appIDCalls: nil, tokenCalls: nil,
            appIDOther: app, tokenOther: fcmToken, platform: .android, now: t0).tuple
        XCTAssertNil(try store.get(id: unrelated.id), "bob's calls token reported as carol's other token moved")
        XCTAssertEqual(try store.list(username: nil, limit: 10, offset: 0), [moved, across])
    }

    func testRemoveIsIdempotent() throws {
        let (store, _, _) = try makeStores()
        try reportIPhone(store)
        let bobs = try reportIPhone(store, user: "bob", voip: String(repeating: "ab", count: 32),
                                    other: String(repeating: "cd", count: 32)).tuple
        XCTAssertTrue(try store.remove(username: "Alice", selector: iPhoneSelector))
        XCTAssertFalse(try store.remove(username: "alice", selector: iPhoneSelector))
        XCTAssertFalse(try store.remove(username: "carol", selector: iPhoneSelector))
        XCTAssertEqual(try store.list(username: nil, limit: 10, offset: 0), [bobs], "same selector, other user: kept")
    }

    func testAHalfPairOrNoPairIsRejectedAndNothingIsWritten() throws {
        let (store, _, _) = try makeStores()
        let kept = try reportIPhone(store).tuple
        let cases: [(String?, String?, String?, String?, String)] = [
            (voipApp, nil, nil, nil, "tokenCalls"),
            (nil, voipToken, nil, nil, "appIDCalls"),
            (voipApp, voipToken, app, nil, "tokenOther"),
            (voipApp, voipToken, nil, apnsToken, "appIDOther"),
            (nil, nil, nil, nil, "tokenCalls"),
        ]
        for (appIDCalls, tokenCalls, appIDOther, tokenOther, field) in cases {
            for user in ["alice", "bob"] {
                XCTAssertThrowsError(try store.report(
                    username: user, selector: iPhoneSelector, appIDCalls: appIDCalls, tokenCalls: tokenCalls,
                    appIDOther: appIDOther, tokenOther: tokenOther, platform: .ios, now: t0.addingTimeInterval(9))
                ) { error in
                    guard case .invalidField(let name, _)? = error as? StorageError else {
                        return XCTFail("\(error)")
                    }
                    XCTAssertEqual(name, field)
                    XCTAssertFalse("\(error)".contains(voipToken), "never echo a token")
                    XCTAssertFalse("\(error)".contains(apnsToken), "never echo a token")
                }
            }
        }
        XCTAssertEqual(try store.list(username: nil, limit: 10, offset: 0), [kept], "untouched, nothing added")
    }

    func testTheSchemaRefusesHalfPairsEvenWithoutTheStore() throws {
        let (_, _, database) = try makeStores()
        XCTAssertThrowsError(try database.pool.write { db in
            try db.execute(sql: """
                INSERT INTO device_tuples (username, selector, app_id_calls, created_at, last_seen_at)
                VALUES ('alice', 's', 'com.acrobits.softphone.voip', 0, 0)
                """)
        })
        XCTAssertThrowsError(try database.pool.write { db in
            try db.execute(sql: "INSERT INTO device_tuples (username, selector, created_at, last_seen_at) VALUES ('alice', 's', 0, 0)")
        })
        XCTAssertThrowsError(try database.pool.write { db in
            try db.execute(sql: """
                INSERT INTO device_tuples (username, selector, app_id_other, token_other, created_at, last_seen_at)
                VALUES ('carol', 's', 'a', 't', 0, 0)
                """)
        }, "foreign key to users")
    }

    func testOverLongAndControlCharacterFieldsAreRejected() throws {
        let (store, _, _) = try makeStores()
        // The limits themselves are accepted.
        let longest = try store.report(
            username: "alice", selector: String(repeating: "S", count: 256),
            appIDCalls: String(repeating: "a", count: 256), tokenCalls: String(repeating: "f", count: 4096),
            appIDOther: nil, tokenOther: nil, platform: nil, now: t0).tuple
        let cases: [(selector: String, appID: String, token: String, field: String)] = [
            (String(repeating: "S", count: 257), voipApp, voipToken, "selector"),
            ("", voipApp, voipToken, "selector"),
            ("12869E0E\n:7C3A0D14", voipApp, voipToken, "selector"),
            ("12869E0E\u{7F}", voipApp, voipToken, "selector"),
            (iPhoneSelector, String(repeating: "a", count: 257), voipToken, "appIDCalls"),
            (iPhoneSelector, "", voipToken, "appIDCalls"),
            (iPhoneSelector, "com.acrobits\t.voip", voipToken, "appIDCalls"),
            (iPhoneSelector, voipApp, String(repeating: "f", count: 4097), "tokenCalls"),
            (iPhoneSelector, voipApp, "", "tokenCalls"),
            (iPhoneSelector, voipApp, voipToken + "\r\n", "tokenCalls"),
            (iPhoneSelector, voipApp, "\u{0}" + voipToken, "tokenCalls"),
            (iPhoneSelector, voipApp, voipToken + "\u{85}", "tokenCalls"),
        ]
        for c in cases {
            XCTAssertThrowsError(try store.report(
                username: "bob", selector: c.selector, appIDCalls: c.appID, tokenCalls: c.token,
                appIDOther: nil, tokenOther: nil, platform: .ios, now: t0)
            ) { error in
                guard case .invalidField(let name, let reason)? = error as? StorageError else {
                    return XCTFail("\(error)")
                }
                XCTAssertEqual(name, c.field)
                XCTAssertTrue("\(error)".hasPrefix("invalid \(c.field): "), "\(error)")
                XCTAssertFalse(reason.contains(voipToken), "never echo a token")
            }
            XCTAssertThrowsError(try store.create(
                username: "bob", selector: c.selector, appIDCalls: c.appID, tokenCalls: c.token,
                appIDOther: nil, tokenOther: nil, platform: .ios, now: t0))
        }
        XCTAssertEqual(try store.list(username: nil, limit: 10, offset: 0), [longest])
    }

    func testUnknownAndInvalidUsersAreRejected() throws {
        let (store, _, _) = try makeStores()
        XCTAssertThrowsError(try reportIPhone(store, user: "carol")) { error in
            XCTAssertEqual(error as? StorageError, .userNotFound("carol"))
        }
        XCTAssertThrowsError(try reportIPhone(store, user: "alice@example.com")) { error in
            XCTAssertEqual(error as? StorageError, .invalidUsername("alice@example.com"))
        }
        XCTAssertThrowsError(try store.create(
            username: "carol", selector: iPhoneSelector, appIDCalls: voipApp, tokenCalls: voipToken,
            appIDOther: nil, tokenOther: nil, platform: nil)) { error in
            XCTAssertEqual(error as? StorageError, .userNotFound("carol"))
        }
        XCTAssertEqual(try store.count(), 0)
    }

    func testRemovingAUserRemovesItsTuples() throws {
        let (store, users, _) = try makeStores()
        try reportIPhone(store)
        try reportPixel(store)
        let bobs = try reportIPhone(store, user: "bob", voip: String(repeating: "ab", count: 32),
                                    other: String(repeating: "cd", count: 32)).tuple
        try users.remove(username: "alice")
        XCTAssertEqual(try store.list(username: nil, limit: 10, offset: 0), [bobs])
    }

    func testPurgeDeletesOnlyTuplesNotSeenSince() throws {
        let (store, _, _) = try makeStores()
        let stale = try reportIPhone(store, at: t0).tuple
        let fresh = try reportPixel(store, user: "bob", at: t0.addingTimeInterval(100)).tuple
        XCTAssertEqual(try store.purge(notSeenSince: t0), 0, "seen exactly then: kept")
        XCTAssertEqual(try store.purge(notSeenSince: t0.addingTimeInterval(50)), 1)
        XCTAssertNil(try store.get(id: stale.id))
        XCTAssertEqual(try store.list(username: nil, limit: 10, offset: 0), [fresh])
        // A new report refreshes last-seen, which saves the tuple from the next purge.
        try reportPixel(store, user: "bob", platform: nil, at: t0.addingTimeInterval(1000))
        XCTAssertEqual(try store.purge(notSeenSince: t0.addingTimeInterval(500)), 0)
    }

    func testAdminCreateUpdateAndDeletes() throws {
        let (store, _, _) = try makeStores()
        let a = try store.create(username: "alice", selector: iPhoneSelector, appIDCalls: voipApp, tokenCalls: voipToken,
                                 appIDOther: app, tokenOther: apnsToken, platform: .ios, now: t0)
        XCTAssertThrowsError(try store.create(username: "ALICE", selector: iPhoneSelector, appIDCalls: app,
                                              tokenCalls: fcmToken, appIDOther: nil, tokenOther: nil, platform: nil)) { error in
            XCTAssertEqual(error as? StorageError, .tupleExists(username: "alice", selector: iPhoneSelector))
        }
        let b = try store.create(username: "bob", selector: pixelSelector, appIDCalls: app, tokenCalls: fcmToken,
                                 appIDOther: nil, tokenOther: nil, platform: .android, now: t0)
        let c = try store.create(username: "bob", selector: iPhoneSelector, appIDCalls: voipApp,
                                 tokenCalls: String(repeating: "ab", count: 32), appIDOther: nil, tokenOther: nil,
                                 platform: nil, now: t0)

        XCTAssertThrowsError(try store.update(id: 999, username: "bob", selector: "x", appIDCalls: app,
                                              tokenCalls: fcmToken, appIDOther: nil, tokenOther: nil, platform: nil)) { error in
            XCTAssertEqual(error as? StorageError, .tupleNotFound(id: 999))
        }
        XCTAssertThrowsError(try store.update(id: c.id, username: "bob", selector: pixelSelector, appIDCalls: voipApp,
                                              tokenCalls: c.tokenCalls, appIDOther: nil, tokenOther: nil, platform: nil)) { error in
            XCTAssertEqual(error as? StorageError, .tupleExists(username: "bob", selector: pixelSelector))
        }
        let updated = try store.update(id: c.id, username: "bob", selector: iPhoneSelector, appIDCalls: voipApp,
                                       tokenCalls: c.tokenCalls, appIDOther: app, tokenOther: fcmToken, platform: .ios)
        XCTAssertEqual(updated.tokenOther, fcmToken)
        XCTAssertEqual(updated.platform, .ios)
        XCTAssertEqual(updated.createdAt, c.createdAt)
        XCTAssertNil(try store.get(id: b.id), "the FCM token moved to the updated row")

        XCTAssertEqual(try store.delete(ids: [a.id, b.id, 424242]), 1, "b is already gone, 424242 never was")
        XCTAssertEqual(try store.delete(ids: []), 0)
        XCTAssertFalse(try store.delete(id: a.id))
        XCTAssertEqual(try store.deleteAll(username: "bob"), 1)
        XCTAssertEqual(try store.count(), 0)
    }

    func testBatchDeleteOfMoreIdsThanOneStatementTakes() throws {
        let (store, _, _) = try makeStores()
        var ids: [Int64] = []
        for i in 0..<1200 {
            ids.append(try store.create(
                username: i.isMultiple(of: 2) ? "alice" : "bob", selector: String(format: "%040X:%08X", i, i),
                appIDCalls: voipApp, tokenCalls: String(format: "%064x", i), appIDOther: nil, tokenOther: nil,
                platform: .ios, now: t0).id)
        }
        XCTAssertEqual(try store.delete(ids: Array(ids.dropLast()) + [ids[0]]), 1199, "duplicates counted once")
        XCTAssertEqual(try store.list(username: nil, limit: 10, offset: 0).map(\.id), [ids.last!])
    }

    func testListPagesInIdOrderAndRefusesNegativeArguments() throws {
        let (store, _, _) = try makeStores()
        var all: [DeviceTuple] = []
        for i in 0..<5 {
            all.append(try store.create(
                username: "alice", selector: "SEL\(i)", appIDCalls: voipApp, tokenCalls: String(format: "%064x", i),
                appIDOther: nil, tokenOther: nil, platform: nil, now: t0))
        }
        XCTAssertEqual(try store.list(username: "alice", limit: 2, offset: 0), Array(all[0..<2]))
        XCTAssertEqual(try store.list(username: "alice", limit: 2, offset: 2), Array(all[2..<4]))
        XCTAssertEqual(try store.list(username: "alice", limit: 2, offset: 4), [all[4]])
        XCTAssertEqual(try store.list(username: nil, limit: 10, offset: 10), [])
        XCTAssertThrowsError(try store.list(username: nil, limit: -1, offset: 0)) { error in
            XCTAssertEqual(error as? StorageError, .invalidField(name: "limit", reason: "must not be negative"))
        }
        XCTAssertThrowsError(try store.list(username: nil, limit: 1, offset: -1))
    }

    func testRecordPushResult() throws {
        let (store, _, _) = try makeStores()
        let t = try reportIPhone(store).tuple
        let pushed = t0.addingTimeInterval(30)
        try store.recordPushResult(id: t.id, sentAt: nil, at: pushed, status: 410, result: "Unregistered")
        var expected = t
        expected.lastPushAt = pushed
        expected.lastPushStatus = 410
        expected.lastPushResult = "Unregistered"
        XCTAssertEqual(try store.get(id: t.id), expected)
        try store.recordPushResult(id: t.id, sentAt: nil, at: pushed, status: nil, result: "timeout after 10 s")
        XCTAssertNil(try store.get(id: t.id)?.lastPushStatus)
        // A new report keeps the push result (it is about this row, not the token).
        XCTAssertEqual(try reportIPhone(store, at: pushed).tuple.lastPushResult, "timeout after 10 s")

        XCTAssertThrowsError(try store.recordPushResult(id: 999, sentAt: nil, at: pushed, status: 200, result: "ok")) { error in
            XCTAssertEqual(error as? StorageError, .tupleNotFound(id: 999))
        }
        XCTAssertThrowsError(try store.recordPushResult(id: t.id, sentAt: nil, at: pushed, status: 200, result: "ok\nINJECTED")) { error in
            XCTAssertEqual(error as? StorageError, .invalidField(name: "result", reason: "contains a control character"))
        }
        XCTAssertEqual(try store.get(id: t.id)?.lastPushResult, "timeout after 10 s")
    }

    /// The answer to a push sent before the tuple existed belongs to a device
    /// whose tuple was deleted and whose id a new one now holds: left alone.
    func testAPushAnswerOlderThanTheTupleIsNotWrittenOnIt() throws {
        let (store, _, _) = try makeStores()
        let t = try reportIPhone(store).tuple
        try store.recordPushResult(id: t.id, sentAt: t0.addingTimeInterval(-5), at: t0.addingTimeInterval(1),
                                   status: 200, result: "ok")
        XCTAssertNil(try store.get(id: t.id)?.lastPushAt, "sent before the tuple was created")
        try store.recordPushResult(id: t.id, sentAt: t0, at: t0.addingTimeInterval(1), status: 200, result: "ok")
        XCTAssertEqual(try store.get(id: t.id)?.lastPushResult, "ok", "sent to this tuple")
    }

    func testTuplesSurviveCloseAndReopen() throws {
        let path = try TestDatabase.makePath(self)
        let first = try SipwakeDatabase(path: path)
        try UserStore(database: first).add(username: "alice", realm: "sipwake", ha1MD5: md5, ha1SHA256: sha256)
        let store = TupleStore(database: first)
        let iPhone = try reportIPhone(store).tuple
        let pixel = try reportPixel(store, bothPairs: true).tuple
        try store.recordPushResult(id: pixel.id, sentAt: nil, at: t0.addingTimeInterval(1.5), status: 200, result: "ok")
        try first.close()

        let second = try SipwakeDatabase(path: path)
        defer { try? second.close() }
        let reopened = TupleStore(database: second)
        var expectedPixel = pixel
        expectedPixel.lastPushAt = t0.addingTimeInterval(1.5)
        expectedPixel.lastPushStatus = 200
        expectedPixel.lastPushResult = "ok"
        XCTAssertEqual(try reopened.list(username: "alice", limit: 10, offset: 0), [iPhone, expectedPixel])
    }

    func testDeviceTupleRoundTripsThroughJSON() throws {
        let (store, _, _) = try makeStores()
        let t = try reportIPhone(store).tuple
        let decoded = try JSONDecoder().decode(DeviceTuple.self, from: JSONEncoder().encode(t))
        XCTAssertEqual(decoded, t)
    }
}
