import Foundation
import XCTest

/// The admin CLI, run as a user would, on the same database as a running server.
final class CLITests: IntegrationTestCase {
    func testUsersAddListRemove() async throws {
        let server = try await startServer(users: false)
        XCTAssertEqual(try server.cli(["users", "add", "Alice", "--password", "pw"]).status, 0)
        try server.assertCLIFails(["users", "add", "alice", "--password", "pw2"], saying: "alice")
        let table = try server.cli(["users", "list"])
        XCTAssertTrue(table.stdout.contains("alice"), table.stdout)
        XCTAssertTrue(table.stdout.contains("1 user"), table.stdout)
        let json = try server.cli(["users", "list", "--json"])
        let rows = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        XCTAssertEqual(rows?.first?["username"] as? String, "alice")
        XCTAssertFalse(json.stdout.contains("ha1"), "no hash is ever printed")
        XCTAssertEqual(try server.cli(["users", "remove", "alice"]).status, 0)
        let missing = try server.cli(["users", "remove", "alice"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.lowercased().contains("alice"), missing.stderr)
    }

    func testBadUserNamesAndPasswordsAreRefusedAndNothingIsStored() async throws {
        let server = try await startServer(users: false)
        for name in ["al ice", "alice@example.com", "", String(repeating: "a", count: 65)] {
            let r = try server.cli(["users", "add", name, "--password", "pw"])
            XCTAssertEqual(r.status, 1, "'\(name)' accepted")
        }
        XCTAssertEqual(try server.cli(["users", "add", "alice", "--password", ""]).status, 1)
        XCTAssertTrue(try server.cli(["users", "list"]).stdout.contains("0 users"))
    }

    func testUsersHoldTurnsTheWakeupHoldOffAndOn() async throws {
        let server = try await startServer()
        func hold(_ user: String) throws -> Bool? {
            let json = try server.cli(["users", "list", "--json"])
            let rows = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
            return rows?.first { $0["username"] as? String == user }?["wakeup_hold"] as? Bool
        }
        XCTAssertEqual(try hold("alice"), true, "on by default")
        let off = try server.cli(["users", "hold", "Alice", "off"])
        XCTAssertEqual(off.status, 0, off.stderr)
        XCTAssertEqual(off.stdout, "wake-up hold off for alice\n")
        XCTAssertEqual(try hold("alice"), false)
        XCTAssertEqual(try hold("bob"), true, "only that user")
        XCTAssertEqual(try server.cli(["users", "hold", "alice", "on"]).status, 0)
        XCTAssertEqual(try hold("alice"), true)

        let unknown = try server.assertCLIFails(["users", "hold", "carol", "off"], saying: "carol")
        XCTAssertEqual(unknown.stderr.split(separator: "\n").count, 1, "one line: \(unknown.stderr)")
        let bad = try server.cli(["users", "hold", "alice", "maybe"])
        XCTAssertEqual(bad.status, 64)
        XCTAssertTrue(bad.stderr.contains("maybe"), bad.stderr)
        XCTAssertEqual(try hold("alice"), true, "nothing changed")
    }

    func testPasswordChangeTakesEffectOnTheRunningServer() async throws {
        let server = try await startServer()
        XCTAssertEqual(try server.cli(["users", "password", "alice", "--password", "new-secret"]).status, 0)
        try await Task.sleep(for: .milliseconds(1200))
        let ua = try await makeUA(server)
        let old = await ua.register(user: "alice", password: "alice-secret", contacts: ["<sip:alice@10.0.0.1>"])
        XCTAssertEqual(old.status, 401)
        let new = await ua.register(user: "alice", password: "new-secret", contacts: ["<sip:alice@10.0.0.1>"])
        XCTAssertEqual(new.status, 200)
    }

    func testRegistrationsListFiltersByUserAndPrintsATable() async throws {
        let (server, ua) = try await startServerAndUA()
        _ = await ua.register(user: "alice", password: "alice-secret", contacts: ["<sip:alice@10.0.0.1>"])
        _ = await ua.register(user: "bob", password: "bob-secret", contacts: ["<sip:bob@10.0.0.2>"])
        XCTAssertEqual(try server.registrations().count, 2)
        XCTAssertEqual(try server.registrations(user: "bob").compactMap { $0["aor"] as? String }, ["bob"])
        let table = try server.cli(["registrations", "list", "--user", "alice"])
        XCTAssertTrue(table.stdout.contains("sip:alice@10.0.0.1"), table.stdout)
        XCTAssertFalse(table.stdout.contains("bob"), table.stdout)
        XCTAssertTrue(table.stdout.contains("1 binding"), table.stdout)
    }

    func testConfigCheckNamesTheBadKeyAndTheFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cfg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("bad.toml").path
        try "[sip]\nlistn = [\"udp:127.0.0.1:5060\"]\n".write(toFile: path, atomically: true, encoding: .utf8)
        let r = try SipwakeProcess.run(SipwakeProcess.executable, ["config", "check", "--config", path])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("listn") && r.stderr.contains("bad.toml"), r.stderr)
        let serve = try SipwakeProcess.run(SipwakeProcess.executable, ["serve", "--config", path])
        XCTAssertEqual(serve.status, 1, "serve refuses a bad config")
        XCTAssertTrue(serve.stderr.contains("listn"), serve.stderr)
    }

    func testTheShippedSampleConfigChecks() throws {
        let r = try SipwakeProcess.run(SipwakeProcess.executable, ["config", "check", "--config",
                                       SipwakeProcess.repository.appendingPathComponent("etc/sipwake.toml").path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("udp:127.0.0.1:5060"), r.stdout)
    }

    func testConfigCheckShowsTheWebhooksButNeverTheirSecrets() throws {
        let server = try SipwakeProcess(config: """
            [webhook]
            url = "https://backend.example/sipwake"
            [webhook.domains."localhost"]
            url = ""
            """)
        let secret = "config-check-secret-0123456789abcdef0123"
        let ok = try server.cli(["config", "check"], environment: ["SIPWAKE_WEBHOOK_SECRETS": secret])
        XCTAssertEqual(ok.status, 0, ok.stderr)
        XCTAssertTrue(ok.stdout.contains("webhook: https://backend.example/sipwake (1 secret(s), 5 s); localhost: off"), ok.stdout)
        XCTAssertFalse(ok.stdout.contains(secret) || ok.stderr.contains(secret))
        let refused = try server.assertCLIFails(["config", "check"], saying: "[webhook] secrets",
                                                environment: ["SIPWAKE_WEBHOOK_SECRETS": "too-short"])
        XCTAssertFalse(refused.stderr.contains("too-short"), "a refused secret is not quoted: \(refused.stderr)")
    }

    func testEnvironmentOverridesAndUnknownVariables() async throws {
        let server = try SipwakeProcess()
        let ok = try server.cli(["config", "check"], environment: ["SIPWAKE_REGISTRAR_MIN_EXPIRES": "120"])
        XCTAssertEqual(ok.status, 0, ok.stderr)
        try server.assertCLIFails(["config", "check"], saying: "SIPWAKE_REGISTRAR_MIN_EXPIRE",
                                  environment: ["SIPWAKE_REGISTRAR_MIN_EXPIRE": "120"])
    }

    func testServeOnAPortInUseFailsWithTheAddress() async throws {
        let first = try await startServer()
        let second = try SipwakeProcess(config: "[sip]\nlisten = [\"udp:127.0.0.1:\(first.port)\"]")
        let r = try second.assertCLIFails(["serve"], saying: "127.0.0.1:\(first.port)")
        XCTAssertTrue(r.stderr.contains("Address already in use"), r.stderr)
    }

    func testServeOnABusyHTTPPortFailsWithTheAddress() async throws {
        let httpPort = try TestPorts.free()
        let holder = try RawSIPSocket(tcpListenerOn: httpPort)
        let server = try SipwakeProcess(config: "[http]\nlisten = \"127.0.0.1:\(httpPort)\"")
        let r = try server.assertCLIFails(["serve"], saying: "cannot listen on http 127.0.0.1:\(httpPort)")
        XCTAssertTrue(r.stderr.contains("Address already in use"), r.stderr)
        withExtendedLifetime(holder) {}
    }

    func testJSONLogFormatWritesOneObjectPerLine() async throws {
        let server = try await startServer(config: "[log]\nformat = \"json\"\nlevel = \"info\"")
        await server.stop()
        let lines = server.log.split(separator: "\n").filter { !$0.isEmpty }
        XCTAssertFalse(lines.isEmpty)
        var messages: [String] = []
        for line in lines {
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], String(line))
            messages.append(object["msg"] as? String ?? "")
            if object["msg"] as? String == "sip listening" {
                XCTAssertEqual(object["level"] as? String, "info")
                XCTAssertNotNil(object["sip.listen"] as? String, "metadata becomes fields")
                XCTAssertTrue(object["bindings.count"] is NSNumber, "a count is a JSON number: \(line)")
                XCTAssertTrue(object["users.count"] is NSNumber, "a count is a JSON number: \(line)")
            }
            if object["msg"] as? String == "sip stopped" {
                XCTAssertTrue(object["bindings.count"] is NSNumber, "a count is a JSON number: \(line)")
            }
        }
        XCTAssertTrue(messages.contains("sip listening"), "\(messages)")
        XCTAssertTrue(messages.contains("sipwake stopped"), "\(messages)")
    }

    func testSIGINTAlsoStopsCleanly() async throws {
        let server = try await startServer()
        let status = await server.stop(signal: SIGINT)
        XCTAssertEqual(status, 0)
        XCTAssertTrue(server.log.contains("sipwake stopped"))
    }
}
