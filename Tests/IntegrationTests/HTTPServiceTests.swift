import Foundation
import Model
import Registrar
import SQLiteStorage
import XCTest

/// `sipwake serve` with its HTTP server: health, and the stale-tuple purge.
final class HTTPServiceTests: IntegrationTestCase {
    private func get(_ url: String) async throws -> (Int, String) {
        let result = try SipwakeProcess.run("/usr/bin/curl", ["-s", "-o", "-", "-w", "\n%{http_code}", url])
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    /// The `key` of each row `sipwake <command> list --json` prints, once the
    /// purge has left one row (or after two seconds).
    private func rowsLeft(_ server: SipwakeProcess, _ command: String, key: String) async throws -> [String] {
        var remaining: [String] = []
        for _ in 0..<20 {
            let list = try server.cli([command, "list", "--json"])
            let rows = (try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]]) ?? []
            remaining = rows.compactMap { $0[key] as? String }
            if remaining.count == 1 { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        return remaining
    }

    func testServeRunsTheHTTPServerOnTheConfiguredAddress() async throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"), "curl is not installed")
        let httpPort = try TestPorts.free()
        let server = try await startServer(config: "[http]\nlisten = \"127.0.0.1:\(httpPort)\"")
        let (status, body) = try await get("http://127.0.0.1:\(httpPort)/health")
        XCTAssertEqual(status, 200)
        XCTAssertEqual(body.trimmingCharacters(in: .whitespacesAndNewlines), "ok")
        XCTAssertTrue(server.log.contains("admin API is off"), server.log)
        let exit = await server.stop()
        XCTAssertEqual(exit, 0, "the HTTP server and the purge stop on SIGTERM too")
    }

    /// What an operator's Prometheus scrapes from a running server after a
    /// registration: the registrar's counters, the binding writer's batches
    /// and the SIP loop's lag and load, behind the admin token.
    func testMetricsAreScrapedFromTheRunningServerAfterARegistration() async throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"), "curl is not installed")
        let httpPort = try TestPorts.free()
        let token = "metrics-token-0123456789"
        let server = try await startServer(config: "[http]\nlisten = \"127.0.0.1:\(httpPort)\"\nadmin_token = \"\(token)\"",
                                           authAlgorithms: ["MD5"])
        let alice = RawDigestClient(socket: try RawSIPSocket(udpTo: server.port), user: "alice", password: "alice-secret")
        XCTAssertEqual(alice.registerAnsweringChallenge(contact: "<sip:alice@10.0.0.1>"), 200)
        let (refused, _) = try await get("http://127.0.0.1:\(httpPort)/metrics")
        XCTAssertEqual(refused, 401, "no metrics without the token")

        var text = ""
        // The loop is probed twice a second; the gauges are sampled every second.
        for _ in 0..<30 {
            let result = try SipwakeProcess.run("/usr/bin/curl", ["-s", "-H", "Authorization: Bearer \(token)",
                                                                  "http://127.0.0.1:\(httpPort)/metrics"])
            text = result.stdout
            if !text.contains("sipwake_sip_loop_lag_seconds_count 0") { break }
            try await Task.sleep(for: .milliseconds(200))
        }
        func value(_ name: String) -> Double? {
            text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ").last!) }
        }
        XCTAssertEqual(value(#"sipwake_register_total{result="accepted"}"#), 1, text)
        XCTAssertEqual(value(#"sipwake_writer_batch_seconds_count{writer="bindings"}"#), 1, text)
        XCTAssertEqual(value(#"sipwake_writer_queue_depth{writer="bindings"}"#), 1, text)
        XCTAssertGreaterThanOrEqual(value("sipwake_sip_loop_lag_seconds_count") ?? 0, 1, text)
        XCTAssertNotNil(value("sipwake_sip_loop_busy_ratio"), text)
        // Buckets fine enough for a SIP server's microseconds.
        XCTAssertNotNil(value(#"sipwake_late_fork_seconds_bucket{le="0.0001"}"#), text)
        XCTAssertEqual(value("sipwake_bindings"), 1, text)
        await server.stop()
    }

    func testTuplesNotReportedForStaleAfterDaysArePurged() async throws {
        let server = try SipwakeProcess(config: "[tuples]\nstale_after_days = 30")
        try server.addUser("alice", password: "alice-secret")
        let database = try SipwakeDatabase(path: server.directory.appendingPathComponent("sipwake.sqlite").path)
        let store = TupleStore(database: database)
        let now = Date()
        _ = try store.report(username: "alice", selector: "OLD0E6E553673C54F29105A0647204C416A2A:7C3A0D14",
                             appIDCalls: "com.acrobits.softphone.voip", tokenCalls: String(repeating: "a1", count: 32),
                             appIDOther: nil, tokenOther: nil, platform: .ios, now: now.addingTimeInterval(-40 * 86400))
        _ = try store.report(username: "alice", selector: "NEW0E6E553673C54F29105A0647204C416A2A:7C3A0D14",
                             appIDCalls: "com.acrobits.softphone.voip", tokenCalls: String(repeating: "b2", count: 32),
                             appIDOther: nil, tokenOther: nil, platform: .ios, now: now.addingTimeInterval(-2 * 86400))
        try database.close()

        try await server.start()
        let remaining = try await rowsLeft(server, "tuples", key: "selector")
        XCTAssertEqual(remaining, ["NEW0E6E553673C54F29105A0647204C416A2A:7C3A0D14"])
        XCTAssertTrue(server.log.contains("what=stale tuples") && server.log.contains("retention purge done"), server.log)
        await server.stop()
    }

    func testCallRecordsOlderThanTheRetentionArePurged() async throws {
        let server = try SipwakeProcess(config: "[calls]\nrecord_retention_days = 7")
        let database = try SipwakeDatabase(path: server.directory.appendingPathComponent("sipwake.sqlite").path)
        let records = CallRecordStore(database: database)
        let now = Date()
        for (id, age) in [("old-call", 10.0), ("new-call", 2.0)] {
            try records.save(CallRecord(id: id, pairingID: id, callID: id, callee: "alice", caller: "sip:pbx@example.com",
                                        startedAt: now.addingTimeInterval(-age * 86400), outcome: .answered))
        }
        try database.close()

        try await server.start()
        let remaining = try await rowsLeft(server, "calls", key: "id")
        XCTAssertEqual(remaining, ["new-call"])
        XCTAssertTrue(server.log.contains("what=old call records"), server.log)
        await server.stop()
    }
}
