import Foundation
import Model
import SQLiteStorage
import XCTest

/// `sipwake calls …` on a database the CLI created; records are put there
/// with `CallRecordStore`, as the server's writer does. No server runs.
final class CallsCLITests: XCTestCase {
    private let start = Date(timeIntervalSince1970: 1_795_000_000.25)
    private let selector = "12869E0E6E553673C54F29105A0647204C416A2A:7C3A0D14"

    /// A call to alice: a push that failed once and was retried, a branch to
    /// the contact that registered after the push (answered after 4.5 s), one
    /// to an older contact (cancelled); alice hung up a minute later.
    private func answeredCall() -> CallRecord {
        let at = { (ms: Double) in self.start.addingTimeInterval(ms / 1000) }
        return CallRecord(
            id: "6f1d2c3b-0a9e-4f7d-8c6b-5a4e3d2c1b0a", pairingID: "pair-7c3a0d14", callID: "a84b4c76e66710@198.51.100.9",
            callee: "alice", caller: "sip:bob@example.com", callerDisplayName: "Bob",
            startedAt: start, endedAt: at(4500), outcome: .answered, finalStatus: 200,
            answeredBy: "sip:alice@203.0.113.7:50123;transport=tcp",
            pushes: [
                CallPushRecord(id: 1, tupleID: 7, selector: selector, verb: "NotifyIncomingCall", attempt: 1,
                               sentAt: at(3), completedAt: at(180), httpStatus: 503, result: "retryable",
                               detail: "gateway busy"),
                CallPushRecord(id: 2, tupleID: 7, selector: selector, verb: "NotifyIncomingCall", attempt: 2,
                               sentAt: at(1180), completedAt: at(1250), httpStatus: 200, result: "delivered"),
            ],
            branches: [
                CallBranchRecord(id: 1, contact: "sip:alice@198.51.100.20:5060", reason: "registered",
                                 startedAt: at(1), finalStatus: 487, endedAt: at(4510), cancelled: "answered-elsewhere"),
                CallBranchRecord(id: 2, contact: "sip:alice@203.0.113.7:50123;transport=tcp",
                                 instanceID: "<urn:uuid:00000000-0000-1000-8000-00a0c91e6bf6>", reason: "late-register",
                                 startedAt: at(2125), provisionalStatus: 180, provisionalAt: at(2313),
                                 finalStatus: 200, endedAt: at(4500)),
            ],
            events: [
                CallEventRecord(at: start, event: "invite received"),
                CallEventRecord(at: at(3), event: "push sent", detail: "attempt 1"),
                CallEventRecord(at: at(2120), event: "contact registered", detail: "sip:alice@203.0.113.7:50123"),
                CallEventRecord(at: at(4500), event: "branch answered", detail: "branch 2"),
            ],
            answerTag: "alice-tag", hungUpAt: at(64500), hungUpBy: .callee)
    }

    /// A call to bob nobody answered, a minute later.
    private func missedCall() -> CallRecord {
        CallRecord(
            id: "0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e", pairingID: "pair-bob-1", callID: "f00d@198.51.100.9",
            callee: "bob", caller: "sip:carol@example.com", startedAt: start.addingTimeInterval(60),
            endedAt: start.addingTimeInterval(90), outcome: .noAnswer, finalStatus: 480,
            events: [CallEventRecord(at: start.addingTimeInterval(60), event: "invite received")])
    }

    /// A config and a database made by the CLI, holding the two calls.
    private func makeServer() throws -> SipwakeProcess {
        let server = try SipwakeProcess()
        try server.addUser("alice", password: "alice-secret")
        let database = try SipwakeDatabase(path: server.directory.appendingPathComponent("sipwake.sqlite").path)
        defer { try? database.close() }
        try CallRecordStore(database: database).save([answeredCall(), missedCall()])
        return server
    }

    func testListPrintsATableNewestFirst() throws {
        let server = try makeServer()
        let table = try server.cli(["calls", "list"])
        XCTAssertEqual(table.status, 0, table.stderr)
        let lines = table.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 4, table.stdout)
        XCTAssertTrue(lines[0].hasPrefix("STARTED"), table.stdout)
        for header in ["PAIRING-ID", "CALLEE", "CALLER", "OUTCOME", "STATUS", "PUSHES", "BRANCHES", "ANSWER",
                       "DURATION", "REASON"] {
            XCTAssertTrue(lines[0].contains(header), header)
        }
        XCTAssertTrue(lines[1].contains("pair-bob-1") && lines[1].contains("no-answer") && lines[1].contains("480"),
                      lines[1])
        // Not answered: no time to answer, and how long it rang.
        XCTAssertEqual(lines[1].split(separator: " ").suffix(3), ["-", "30.0s", "-"], lines[1])
        // Answered: the time to answer, and the talk time (answer to BYE).
        let alice = lines[2].split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        XCTAssertEqual(alice, ["2026-11-18T11:06:40Z", "pair-7c3a0d14", "alice", "sip:bob@example.com", "answered",
                               "200", "2", "2", "4.5s", "1m00s", "-"])
        XCTAssertEqual(lines[3], "2 calls")

        let filtered = try server.cli(["calls", "list", "--user", "ALICE", "--outcome", "answered"])
        XCTAssertEqual(filtered.status, 0, filtered.stderr)
        XCTAssertFalse(filtered.stdout.contains("pair-bob-1"), filtered.stdout)
        XCTAssertTrue(filtered.stdout.hasSuffix("1 call\n"), filtered.stdout)

        let page = try server.cli(["calls", "list", "--limit", "1"])
        XCTAssertTrue(page.stdout.contains("pair-bob-1"), page.stdout)
        XCTAssertTrue(page.stdout.hasSuffix("1-1 of 2 calls (--offset, --limit for more)\n"), page.stdout)

        try server.assertCLIFails(["calls", "list", "--outcome", "rang"],
                                  saying: "invalid --outcome 'rang': use one of answered, answered-elsewhere")
        try server.assertCLIFails(["calls", "list", "--limit=-1"], saying: "--limit")
    }

    func testListJSONHasEveryRecordInFull() throws {
        let server = try makeServer()
        let result = try server.cli(["calls", "list", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(rows.compactMap { $0["pairing_id"] as? String }, ["pair-bob-1", "pair-7c3a0d14"])
        let alice = rows[1]
        XCTAssertEqual(alice["call_id"] as? String, "a84b4c76e66710@198.51.100.9")
        XCTAssertEqual(alice["caller_display_name"] as? String, "Bob")
        XCTAssertEqual(alice["started_at"] as? String, "2026-11-18T11:06:40.250Z")
        XCTAssertEqual(alice["outcome"] as? String, "answered")
        let pushes = try XCTUnwrap(alice["pushes"] as? [[String: Any]])
        XCTAssertEqual(pushes.map { $0["http_status"] as? Int }, [503, 200])
        XCTAssertEqual(pushes.first?["selector"] as? String, selector)
        XCTAssertEqual((alice["branches"] as? [[String: Any]])?.last?["instance_id"] as? String,
                       "<urn:uuid:00000000-0000-1000-8000-00a0c91e6bf6>")
        XCTAssertEqual((alice["events"] as? [[String: Any]])?.count, 4)
        XCTAssertTrue(rows[0]["answered_by"] is NSNull, "absent values are explicit nulls")
    }

    func testShowTellsTheWholeStoryByPairingIDRecordIDOrCallID() throws {
        let server = try makeServer()
        let result = try server.cli(["calls", "show", "pair-7c3a0d14"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let text = result.stdout
        for expected in [
            "pairing id      pair-7c3a0d14", "call-id         a84b4c76e66710@198.51.100.9",
            "caller          \"Bob\" <sip:bob@example.com>", "outcome         answered",
            "final status    200", "answered by     sip:alice@203.0.113.7:50123;transport=tcp",
            "started         2026-11-18T11:06:40.250Z", "ended           2026-11-18T11:06:44.750Z",
            "answered after  4.5s", "hung up         2026-11-18T11:07:44.750Z by callee",
            "duration        1m00s", "record id       6f1d2c3b-0a9e-4f7d-8c6b-5a4e3d2c1b0a",
            "Pushes\nATTEMPT", "Branches\nID", "Timeline\nAT",
        ] {
            XCTAssertTrue(text.contains(expected), "missing \(expected) in:\n\(text)")
        }
        let lines = text.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        XCTAssertTrue(lines.contains(["1", "NotifyIncomingCall", selector, "7", "+3ms", "retryable", "503", "gateway", "busy"]),
                      text)
        XCTAssertTrue(lines.contains(["2", "NotifyIncomingCall", selector, "7", "+1180ms", "delivered", "200", "-"]), text)
        XCTAssertTrue(lines.contains([
            "2", "sip:alice@203.0.113.7:50123;transport=tcp", "<urn:uuid:00000000-0000-1000-8000-00a0c91e6bf6>",
            "late-register", "+2125ms", "180", "+2313ms", "200", "+4500ms", "-",
        ]), text)
        XCTAssertTrue(lines.contains([
            "1", "sip:alice@198.51.100.20:5060", "-", "registered", "+1ms", "-", "487", "+4510ms", "answered-elsewhere",
        ]), text)
        XCTAssertTrue(lines.contains(["+0ms", "invite", "received"]), text)
        XCTAssertTrue(lines.contains(["+2120ms", "contact", "registered", "sip:alice@203.0.113.7:50123"]), text)

        for key in ["6f1d2c3b-0a9e-4f7d-8c6b-5a4e3d2c1b0a", "a84b4c76e66710@198.51.100.9"] {
            let same = try server.cli(["calls", "show", key])
            XCTAssertEqual(same.status, 0, same.stderr)
            XCTAssertEqual(same.stdout, text, key)
        }

        let missed = try server.cli(["calls", "show", "pair-bob-1"])
        XCTAssertTrue(missed.stdout.contains("Pushes: none"), missed.stdout)
        XCTAssertTrue(missed.stdout.contains("Branches: none"), missed.stdout)
        XCTAssertTrue(missed.stdout.contains("outcome       no-answer"), missed.stdout)
        XCTAssertTrue(missed.stdout.contains("duration      30.0s"), missed.stdout)
        XCTAssertFalse(missed.stdout.contains("hung up"), "only an answered call is hung up")
    }

    func testTalkTimeIsUnknownWithoutTheBYEAndLongTalksShowHours() throws {
        let server = try SipwakeProcess()
        try server.addUser("alice", password: "alice-secret")
        var talking = answeredCall()
        talking.hungUpAt = nil
        talking.hungUpBy = nil
        var long = answeredCall()
        long.id = "long"
        long.pairingID = "pair-long"
        long.startedAt = start.addingTimeInterval(-7200)
        long.endedAt = long.startedAt.addingTimeInterval(4.5)
        long.hungUpAt = long.startedAt.addingTimeInterval(4.5 + 3725)
        let database = try SipwakeDatabase(path: server.directory.appendingPathComponent("sipwake.sqlite").path)
        try CallRecordStore(database: database).save([talking, long])
        try database.close()

        let lines = try server.cli(["calls", "list"]).stdout.split(separator: "\n")
        XCTAssertEqual(lines[1].split(separator: " ").suffix(3), ["4.5s", "-", "-"], "no BYE seen: no talk time")
        XCTAssertEqual(lines[2].split(separator: " ").suffix(3), ["4.5s", "1h02m05s", "-"])
        let story = try server.cli(["calls", "show", "pair-7c3a0d14"]).stdout
        XCTAssertTrue(story.contains("hung up         -\n"), story)
        XCTAssertTrue(story.contains("duration        -\n"), story)
    }

    func testLongContactsAreShortenedInTheTableAndWholeInJSON() throws {
        let server = try SipwakeProcess()
        try server.addUser("alice", password: "alice-secret")
        let token = String(repeating: "f", count: 160)
        let contact = "sip:alice@203.0.113.7:50123;transport=tcp;pn-provider=fcm;pn-param=example-phone;pn-prid=\(token)"
        var call = answeredCall()
        call.branches[1].contact = contact
        let database = try SipwakeDatabase(path: server.directory.appendingPathComponent("sipwake.sqlite").path)
        try CallRecordStore(database: database).save([call])
        try database.close()

        let text = try server.cli(["calls", "show", "pair-7c3a0d14"]).stdout
        XCTAssertTrue(text.contains("sip:alice@203.0.113.7:50123;transport=tcp;… "), text)
        XCTAssertFalse(text.contains(token), text)
        let branchRows = text.components(separatedBy: "\n\n").first { $0.hasPrefix("Branches") } ?? ""
        XCTAssertTrue(branchRows.split(separator: "\n").allSatisfy { $0.count <= 200 }, branchRows)

        let json = try server.cli(["calls", "show", "pair-7c3a0d14", "--json"]).stdout
        let record = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let branches = try XCTUnwrap(record["branches"] as? [[String: Any]])
        XCTAssertEqual(branches.last?["contact"] as? String, contact, "--json keeps the contact whole")
    }

    func testShowJSONIsTheWholeRecord() throws {
        let server = try makeServer()
        let result = try server.cli(["calls", "show", "pair-7c3a0d14", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let record = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(record["id"] as? String, "6f1d2c3b-0a9e-4f7d-8c6b-5a4e3d2c1b0a")
        XCTAssertEqual(record["ended_at"] as? String, "2026-11-18T11:06:44.750Z")
        XCTAssertEqual(record["final_status"] as? Int, 200)
        XCTAssertEqual(record["hung_up_at"] as? String, "2026-11-18T11:07:44.750Z")
        XCTAssertEqual(record["hung_up_by"] as? String, "callee")
        XCTAssertNil(record["answer_tag"], "the dialog tag is sipwake's own business")
        let branch = try XCTUnwrap((record["branches"] as? [[String: Any]])?.first)
        XCTAssertEqual(branch["cancelled"] as? String, "answered-elsewhere")
        XCTAssertEqual(branch["final_status"] as? Int, 487)
        XCTAssertTrue(branch["provisional_status"] is NSNull)
    }

    func testUnknownIDIsOneLineAndExitStatus1() throws {
        let server = try makeServer()
        let result = try server.cli(["calls", "show", "no-such-call"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout, "")
        let lines = result.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("no call with record id, pairing id or Call-ID 'no-such-call'"),
                      result.stderr)
    }

    func testAnEmptyDatabaseListsNoCalls() throws {
        let server = try SipwakeProcess()
        try server.addUser("alice", password: "alice-secret")
        let result = try server.cli(["calls", "list"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.hasSuffix("0 calls\n"), result.stdout)
    }

    func testEveryOutcomeARecordCanHoldIsAFilterAndOffsetIsInTheHelp() throws {
        let server = try SipwakeProcess()
        try server.addUser("alice", password: "alice-secret")
        let database = try SipwakeDatabase(path: server.directory.appendingPathComponent("sipwake.sqlite").path)
        let records = CallOutcome.allCases.enumerated().map { index, outcome in
            CallRecord(id: "rec-\(outcome.rawValue)", pairingID: "pair-\(outcome.rawValue)", callID: "call-\(index)@pbx",
                       callee: "alice", caller: "sip:bob@example.com", startedAt: start.addingTimeInterval(Double(index)),
                       endedAt: start.addingTimeInterval(Double(index) + 1), outcome: outcome, finalStatus: 480)
        }
        try CallRecordStore(database: database).save(records)
        try database.close()
        for outcome in CallOutcome.allCases {
            let result = try server.cli(["calls", "list", "--json", "--outcome", outcome.rawValue.uppercased()])
            XCTAssertEqual(result.status, 0, "\(outcome): \(result.stderr)")
            let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
            XCTAssertEqual(rows.compactMap { $0["pairing_id"] as? String }, ["pair-\(outcome.rawValue)"], "\(outcome)")
        }
        try server.assertCLIFails(["calls", "list", "--outcome", "rang"], saying: "invalid --outcome 'rang'")
        let help = try server.cli(["calls", "list", "--help"], addConfig: false)
        for outcome in CallOutcome.allCases {
            XCTAssertTrue(help.stdout.contains(outcome.rawValue), "\(outcome) missing from the help:\n\(help.stdout)")
        }
        XCTAssertTrue(help.stdout.contains("--offset"), help.stdout)
        XCTAssertTrue(help.stdout.contains("paging"), help.stdout)
        let paged = try server.cli(["calls", "list", "--json", "--limit", "2", "--offset", "1"])
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(paged.stdout.utf8)) as? [[String: Any]])
        let newest = CallOutcome.allCases.reversed().map { "pair-\($0.rawValue)" }
        XCTAssertEqual(rows.compactMap { $0["pairing_id"] as? String }, Array(newest[1...2]), "newest first, one skipped")
    }
}
