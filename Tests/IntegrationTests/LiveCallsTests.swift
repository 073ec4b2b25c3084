import Foundation
import XCTest

/// `sipwake calls list --live` and `GET /admin/v1/live-calls`: the calls a
/// running server holds now, asked over its admin API.
final class LiveCallsTests: IntegrationTestCase {
    private static let token = "live-calls-admin-token"

    private func startLiveServer() async throws -> (SipwakeProcess, Int) {
        let httpPort = try TestPorts.free()
        let server = try await startServer(config: """
            [http]
            listen = "127.0.0.1:\(httpPort)"
            admin_token = "\(Self.token)"
            [auth]
            trusted_peers = ["127.0.0.2"]
            [calls]
            wake_window = 10
            """)
        return (server, httpPort)
    }

    private func liveJSON(_ server: SipwakeProcess) throws -> [[String: Any]] {
        let result = try server.cli(["calls", "list", "--live", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]], result.stdout)
    }

    func testLiveListsTheCallRingingNowAndNotOnceItEnded() async throws {
        let (server, httpPort) = try await startLiveServer()
        let alice = try await startPhone("alice")
        let registered = await alice.register(registrar: server.proxy("udp"), user: "alice", password: "alice-secret")
        XCTAssertEqual(registered, 200)
        let pbx = try await startPhone("pbx", host: "127.0.0.2")

        let idle = try server.cli(["calls", "list", "--live"])
        XCTAssertEqual(idle.status, 0, idle.stderr)
        XCTAssertTrue(idle.stdout.contains("0 calls in progress"), idle.stdout)

        let outgoing = await pbx.invite("sip:alice@localhost", via: server.proxy("udp"),
                                        headers: [("X-Push-ID", "pair-live-1")], media: "audio",
                                        from: "\"Bob\" <sip:1002@pbx.example.com>")
        let incoming = try XCTUnwrapAsync(await alice.waitForInvite(timeout: .seconds(5)))
        await alice.respond(incoming, status: 180)
        _ = await pbx.waitForResponse(outgoing, atLeast: 180, timeout: .seconds(5))

        let table = try server.cli(["calls", "list", "--live"])
        XCTAssertEqual(table.status, 0, table.stderr)
        let row = try XCTUnwrap(table.stdout.split(separator: "\n").first { $0.contains("pair-live-1") }, table.stdout)
        XCTAssertTrue(row.contains("alice"), String(row))
        XCTAssertTrue(row.contains("ringing"), String(row))
        XCTAssertTrue(table.stdout.contains("1 call in progress"), table.stdout)

        let items = try liveJSON(server)
        XCTAssertEqual(items.count, 1)
        XCTAssertEqual(items.first?["pairing_id"] as? String, "pair-live-1")
        XCTAssertTrue(items.first?["outcome"] is NSNull, "in progress: no outcome yet")
        XCTAssertEqual((items.first?["branches"] as? [Any])?.count, 1)

        // Filtered to another callee: none.
        let bob = try server.cli(["calls", "list", "--live", "--user", "bob"])
        XCTAssertTrue(bob.stdout.contains("0 calls in progress"), bob.stdout)

        // The admin API itself wants the token.
        let refused = try SipwakeProcess.run("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}",
                                                               "http://127.0.0.1:\(httpPort)/admin/v1/live-calls"])
        XCTAssertEqual(refused.stdout, "401")

        await pbx.cancel(outgoing)
        _ = await pbx.waitForResponse(outgoing, atLeast: 400, timeout: .seconds(5))
        var remaining = 1
        for _ in 0..<100 where remaining > 0 {
            remaining = try liveJSON(server).count
            if remaining > 0 { try await Task.sleep(for: .milliseconds(50)) }
        }
        XCTAssertEqual(remaining, 0, "a cancelled call is no longer live")
    }

    func testLiveSaysWhatIsMissingWhenItCannotAskTheServer() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("sipwake.toml").path
        func run(_ text: String, _ extra: [String] = []) throws -> SipwakeProcess.CLIResult {
            try text.write(toFile: config, atomically: true, encoding: .utf8)
            return try SipwakeProcess.run(SipwakeProcess.executable,
                                          ["calls", "list", "--live", "--config", config] + extra)
        }
        let port = try TestPorts.free()
        let noServer = try run("[http]\nlisten = \"127.0.0.1:\(port)\"\nadmin_token = \"\(Self.token)\"\n")
        XCTAssertEqual(noServer.status, 1)
        XCTAssertTrue(noServer.stderr.contains("cannot reach the running server at http://127.0.0.1:\(port)"), noServer.stderr)
        XCTAssertFalse(noServer.stderr.contains(Self.token), "the token is never printed")

        let noToken = try run("[http]\nlisten = \"127.0.0.1:\(port)\"\n")
        XCTAssertEqual(noToken.status, 1)
        XCTAssertTrue(noToken.stderr.contains("set [http] admin_token"), noToken.stderr)

        let noHTTP = try run("[http]\nlisten = \"\"\n")
        XCTAssertEqual(noHTTP.status, 1)
        XCTAssertTrue(noHTTP.stderr.contains("set [http] listen and admin_token"), noHTTP.stderr)

        let outcome = try run("[http]\nlisten = \"127.0.0.1:\(port)\"\nadmin_token = \"t\"\n", ["--outcome", "missed"])
        XCTAssertNotEqual(outcome.status, 0)
        XCTAssertTrue(outcome.stderr.contains("--outcome is for call records"), outcome.stderr)
    }

    func testLiveWithAWrongTokenSaysTheServerRefusedIt() async throws {
        let (server, _) = try await startLiveServer()
        let text = try String(contentsOfFile: server.configPath, encoding: .utf8)
            .replacingOccurrences(of: Self.token, with: "another-token-entirely")
        let other = server.directory.appendingPathComponent("other.toml").path
        try text.write(toFile: other, atomically: true, encoding: .utf8)
        let result = try SipwakeProcess.run(SipwakeProcess.executable, ["calls", "list", "--live", "--config", other])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("refused the admin token"), result.stderr)
    }
}
