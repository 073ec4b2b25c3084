import Foundation
import Model
import SQLiteStorage
import TestSupport
import XCTest

/// `sipwake tuples …` on a database the CLI created; tuples are put there with
/// `TupleStore` directly (the HTTP reporter lands later). No server runs.
final class TuplesCLITests: XCTestCase {

    /// A config and database with users alice and bob, made by the CLI.
    private func makeServer() throws -> SipwakeProcess {
        let server = try SipwakeProcess()
        try server.addUser("alice", password: "alice-secret")
        try server.addUser("bob", password: "bob-secret")
        return server
    }

    /// Opens the harness's database, runs `body` on its tuple store, closes it.
    private func withStore<T>(_ server: SipwakeProcess, _ body: (TupleStore) throws -> T) throws -> T {
        let database = try SipwakeDatabase(path: server.directory.appendingPathComponent("sipwake.sqlite").path)
        defer { try? database.close() }
        return try body(TupleStore(database: database))
    }

    /// alice's iPhone (two pairs), alice's Pixel (FCM), bob's iPhone.
    @discardableResult
    private func seed(_ server: SipwakeProcess, aliceSeen: Date = Date()) throws -> [DeviceTuple] {
        try withStore(server) { store in
            [
                try store.report(username: "alice", selector: iPhoneSelector, appIDCalls: voipApp, tokenCalls: voipToken,
                                 appIDOther: app, tokenOther: apnsToken, platform: .ios, now: aliceSeen).tuple,
                try store.report(username: "alice", selector: pixelSelector, appIDCalls: app, tokenCalls: fcmToken,
                                 appIDOther: app, tokenOther: fcmToken, platform: .android, now: aliceSeen).tuple,
                try store.report(username: "bob", selector: iPhoneSelector, appIDCalls: voipApp,
                                 tokenCalls: String(repeating: "ab", count: 32), appIDOther: nil, tokenOther: nil,
                                 platform: nil, now: Date()).tuple,
            ]
        }
    }

    private func jsonArray(_ text: String) throws -> [[String: Any]] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]], text)
    }

    func testListPrintsATableWithShortenedTokensAndJSONWithFullTokens() throws {
        let server = try makeServer()
        let tuples = try seed(server)
        let table = try server.cli(["tuples", "list"])
        XCTAssertEqual(table.status, 0, table.stderr)
        XCTAssertTrue(table.stdout.hasPrefix("ID  USER"), table.stdout)
        XCTAssertTrue(table.stdout.contains(iPhoneSelector), table.stdout)
        XCTAssertTrue(table.stdout.contains("\(voipApp) 5f0e4c6a…"), table.stdout)
        XCTAssertTrue(table.stdout.contains("\(app) dQw4w9Wg…"), table.stdout)
        XCTAssertTrue(table.stdout.contains("android"), table.stdout)
        for token in [voipToken, apnsToken, fcmToken] {
            XCTAssertFalse(table.stdout.contains(token), "a table never shows a whole token")
        }
        XCTAssertTrue(table.stdout.hasSuffix("3 tuples\n"), table.stdout)

        let json = try server.cli(["tuples", "list", "--json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let rows = try jsonArray(json.stdout)
        XCTAssertEqual(rows.compactMap { ($0["id"] as? NSNumber)?.int64Value }, tuples.map(\.id))
        XCTAssertEqual(rows[0]["username"] as? String, "alice")
        XCTAssertEqual(rows[0]["selector"] as? String, iPhoneSelector)
        XCTAssertEqual(rows[0]["app_id_calls"] as? String, voipApp)
        XCTAssertEqual(rows[0]["token_calls"] as? String, voipToken)
        XCTAssertEqual(rows[0]["token_other"] as? String, apnsToken)
        XCTAssertEqual(rows[0]["platform"] as? String, "ios")
        XCTAssertEqual(rows[1]["token_calls"] as? String, fcmToken)
        XCTAssertTrue(rows[2]["token_other"] is NSNull, "no other pair: null, as the admin API shows it")
        XCTAssertTrue(rows[2]["platform"] is NSNull)
        XCTAssertNotNil(rows[0]["last_seen_at"] as? String)
    }

    func testListFiltersByUserAndPages() throws {
        let server = try makeServer()
        try seed(server)
        let bob = try server.cli(["tuples", "list", "--user", "BOB"])
        XCTAssertEqual(bob.status, 0, bob.stderr)
        XCTAssertFalse(bob.stdout.contains("alice"), bob.stdout)
        XCTAssertTrue(bob.stdout.hasSuffix("1 tuple\n"), bob.stdout)

        let page = try server.cli(["tuples", "list", "--user", "alice", "--limit", "1", "--offset", "1", "--json"])
        XCTAssertEqual(try jsonArray(page.stdout).compactMap { $0["selector"] as? String }, [pixelSelector])
        let pageTable = try server.cli(["tuples", "list", "--limit", "2"])
        XCTAssertTrue(pageTable.stdout.contains("1-2 of 3 tuples"), pageTable.stdout)

        let nobody = try server.cli(["tuples", "list", "--user", "carol"])
        XCTAssertEqual(nobody.status, 0)
        XCTAssertTrue(nobody.stdout.hasSuffix("0 tuples\n"), nobody.stdout)

        try server.assertCLIFails(["tuples", "list", "--limit=-1"], saying: "--limit")
    }

    func testShowPrintsOneTupleInFullAndRefusesUnknownOrBadIDs() throws {
        let server = try makeServer()
        let tuples = try seed(server)
        try withStore(server) { store in
            try store.recordPushResult(id: tuples[1].id, sentAt: nil, at: Date(), status: 200, result: "ok")
        }
        let text = try server.cli(["tuples", "show", String(tuples[1].id)])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.contains(fcmToken), "show prints the whole token: \(text.stdout)")
        XCTAssertTrue(text.stdout.contains(pixelSelector), text.stdout)
        XCTAssertTrue(text.stdout.contains(" 200 ok"), text.stdout)

        let json = try server.cli(["tuples", "show", String(tuples[0].id), "--json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let row = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(row["token_calls"] as? String, voipToken)
        XCTAssertEqual(row["app_id_other"] as? String, app)
        XCTAssertTrue(row["last_push_at"] is NSNull, "never pushed: null")

        try server.assertCLIFails(["tuples", "show", "999"], saying: "no device tuple with id 999")
        for bad in ["abc", "0", "1.5"] {
            let r = try server.cli(["tuples", "show", bad])
            XCTAssertEqual(r.status, 1, bad)
            XCTAssertTrue(r.stderr.contains("invalid tuple ID '\(bad)'"), r.stderr)
        }
    }

    func testDeleteByIDOrByUserButNotBothNorNeither() throws {
        let server = try makeServer()
        let tuples = try seed(server)
        let one = try server.cli(["tuples", "delete", String(tuples[2].id)])
        XCTAssertEqual(one.status, 0, one.stderr)
        XCTAssertTrue(one.stdout.contains("deleted tuple \(tuples[2].id)"), one.stdout)
        try server.assertCLIFails(["tuples", "delete", String(tuples[2].id)],
                                  saying: "no device tuple with id \(tuples[2].id)")

        try server.assertCLIFails(["tuples", "delete", String(tuples[0].id), "--user", "alice"], saying: "not both")
        try server.assertCLIFails(["tuples", "delete"], saying: "give a tuple ID or --user USER")
        try server.assertCLIFails(["tuples", "delete", "--user", "carol"], saying: "user 'carol' does not exist")
        XCTAssertEqual(try withStore(server) { try $0.count() }, 2, "the refused commands deleted nothing")

        let all = try server.cli(["tuples", "delete", "--user", "Alice"])
        XCTAssertEqual(all.status, 0, all.stderr)
        XCTAssertTrue(all.stdout.contains("deleted 2 tuples of user alice"), all.stdout)
        XCTAssertEqual(try withStore(server) { try $0.count() }, 0)
    }

    func testPurgeDeletesTuplesNotSeenForTheGivenTimeAndRefusesBadDurations() throws {
        let server = try makeServer()
        let tuples = try seed(server, aliceSeen: Date().addingTimeInterval(-31 * 86_400))
        for bad in ["30", "d", "30x", "-5d", "0d", "1.5h", "30 d", "99999999999d", "4000d"] {
            // `=` form: a value starting with '-' would otherwise read as an option.
            let r = try server.cli(["tuples", "purge", "--not-seen-for=\(bad)"])
            XCTAssertEqual(r.status, 1, bad)
            XCTAssertTrue(r.stderr.contains("--not-seen-for"), "\(bad): \(r.stderr)")
        }
        XCTAssertEqual(try withStore(server) { try $0.count() }, 3, "nothing purged by a refused command")

        let notYet = try server.cli(["tuples", "purge", "--not-seen-for", "32d"])
        XCTAssertEqual(notYet.status, 0, notYet.stderr)
        XCTAssertTrue(notYet.stdout.contains("purged 0 tuples"), notYet.stdout)
        let purged = try server.cli(["tuples", "purge", "--not-seen-for", "30d"])
        XCTAssertEqual(purged.status, 0, purged.stderr)
        XCTAssertTrue(purged.stdout.contains("purged 2 tuples"), purged.stdout)
        let left = try jsonArray(try server.cli(["tuples", "list", "--json"]).stdout)
        XCTAssertEqual(left.compactMap { ($0["id"] as? NSNumber)?.int64Value }, [tuples[2].id])
        for unit in ["12h", "90m", "3600s"] {
            XCTAssertEqual(try server.cli(["tuples", "purge", "--not-seen-for", unit]).status, 0, unit)
        }
        XCTAssertEqual(try withStore(server) { try $0.count() }, 1, "bob reported just now")
    }

    func testRemovingAUserWithTheCLIRemovesItsTuples() throws {
        let server = try makeServer()
        try seed(server)
        XCTAssertEqual(try server.cli(["users", "remove", "alice"]).status, 0)
        let rows = try jsonArray(try server.cli(["tuples", "list", "--json"]).stdout)
        XCTAssertEqual(rows.compactMap { $0["username"] as? String }, ["bob"])
    }
}
