import Foundation
import Model
import SQLiteStorage
import XCTest

/// `SIGHUP` to a running `sipwake serve`: what can change does, at once,
/// without dropping a registration or a call; what cannot is named in one
/// warning; a broken file changes nothing.
final class ConfigReloadTests: IntegrationTestCase {
    private var gateways: [LabPushGateway] = []
    private static let token = "config-reload-admin-token"

    override func tearDown() async throws {
        for gateway in gateways { await gateway.stop() }
        gateways.removeAll()
        try await super.tearDown()
    }

    private func gateway() async throws -> LabPushGateway {
        let gateway = try await LabPushGateway.start()
        gateways.append(gateway)
        return gateway
    }

    /// Sends SIGHUP and waits for the reload's line (the `count`th reload).
    private func reload(_ server: SipwakeProcess, count: Int = 1, file: StaticString = #filePath,
                        line: UInt = #line) async throws {
        let pid = try XCTUnwrap(server.pid, file: file, line: line)
        kill(pid, SIGHUP)
        for _ in 0..<250 {
            let done = server.log.components(separatedBy: "config reloaded").count - 1
                + server.log.components(separatedBy: "config reload failed").count - 1
            if done >= count { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        XCTFail("no reload logged:\n\(server.log)", file: file, line: line)
    }

    private func editConfig(_ server: SipwakeProcess, _ edit: (String) -> String) throws {
        let text = try String(contentsOfFile: server.configPath, encoding: .utf8)
        try edit(text).write(toFile: server.configPath, atomically: true, encoding: .utf8)
    }

    private func lines(_ log: String, containing text: String) -> [String] {
        log.split(separator: "\n").map(String.init).filter { $0.contains(text) }
    }

    func testSIGHUPMovesPushesToTheNewGatewayAndBadgeAndRaisesTheLogLevelKeepingTheRegistration() async throws {
        let before = try await gateway()
        let after = try await gateway()
        let server = try await startServer(config: """
            [auth]
            trusted_peers = ["127.0.0.2"]
            [log]
            level = "info"
            [push]
            gateway_url = "\(before.url)"
            timeout = 2
            incoming_badge = 0
            [calls]
            wake_window = 5
            """)
        let database = try SipwakeDatabase(path: server.directory.appendingPathComponent("sipwake.sqlite").path)
        _ = try TupleStore(database: database).report(
            username: "alice", selector: "sel-reload", appIDCalls: "com.example.voip", tokenCalls: "token-reload",
            appIDOther: nil, tokenOther: nil, platform: .ios, provider: nil, now: Date())
        let alice = try await startPhone("alice")
        let registered = await alice.register(registrar: server.proxy("udp"), user: "alice", password: "alice-secret")
        XCTAssertEqual(registered, 200)
        XCTAssertTrue(lines(server.log, containing: " debug ").isEmpty, "info at start")

        try editConfig(server) { text in
            text.replacingOccurrences(of: before.url, with: after.url)
                .replacingOccurrences(of: "incoming_badge = 0", with: "incoming_badge = 7")
                .replacingOccurrences(of: "level = \"info\"", with: "level = \"debug\"")
        }
        try await reload(server)
        let reloaded = try XCTUnwrap(lines(server.log, containing: "config reloaded").first)
        XCTAssertTrue(reloaded.contains("config.applied=log.level,push.gateway_url,push.incoming_badge"), reloaded)
        XCTAssertTrue(lines(server.log, containing: "needs a restart").isEmpty, server.log)

        // The call after the reload: alice's binding from before is forked
        // to, and the push goes to the new gateway with the new badge.
        let pbx = try await startPhone("pbx", host: "127.0.0.2")
        _ = await pbx.invite("sip:alice@localhost", via: server.proxy("udp"), headers: [("X-Push-ID", "pair-reload-1")],
                             media: "audio", from: "\"Bob\" <sip:1002@pbx.example.com>")
        let push = try XCTUnwrapAsync(await after.waitForPush("NotifyIncomingCall"))
        XCTAssertEqual(push["Id"], "pair-reload-1")
        XCTAssertEqual(push["Badge"], "7")
        XCTAssertTrue(before.pushes("NotifyIncomingCall").isEmpty, "nothing to the old gateway")
        let incoming = await alice.waitForInvite(timeout: .seconds(5))
        XCTAssertNotNil(incoming, "the binding registered before the reload still gets the call")
        XCTAssertFalse(lines(server.log, containing: " debug ").isEmpty, "debug lines after the reload")
    }

    func testSIGHUPNamesWhatNeedsARestartAndABrokenFileChangesNothing() async throws {
        let httpPort = try TestPorts.free()
        let server = try await startServer(config: """
            [http]
            listen = "127.0.0.1:\(httpPort)"
            admin_token = "\(Self.token)"
            [registrar]
            min_expires = 60
            [log]
            level = "info"
            """)
        try editConfig(server) { $0.replacingOccurrences(of: "min_expires = 60", with: "min_expires = 120") }
        try await reload(server)
        let warning = try XCTUnwrap(lines(server.log, containing: "config change needs a restart").first)
        XCTAssertTrue(warning.contains(" warning "), warning)
        XCTAssertTrue(warning.contains("config.keys=registrar.min_expires"), warning)
        XCTAssertTrue(try XCTUnwrap(lines(server.log, containing: "config reloaded").first).contains("config.applied=-"))

        // The running value is still the old one: a REGISTER asking 90 s is not too brief.
        let ua = try await makeUA(server)
        let contact = ["<sip:alice@127.0.0.1:\(try TestPorts.free())>"]
        let ok = await ua.register(user: "alice", password: "alice-secret", contacts: contact, expires: 90)
        XCTAssertEqual(ok.status, 200)

        try editConfig(server) { $0 + "\nthis is [ not toml\n" }
        try await reload(server, count: 2)
        let failed = try XCTUnwrap(lines(server.log, containing: "config reload failed").first)
        XCTAssertTrue(failed.contains(" warning "), failed)
        XCTAssertTrue(failed.contains("invalid TOML"), failed)
        XCTAssertTrue(server.isRunning)
        let again = await ua.register(user: "alice", password: "alice-secret", contacts: contact, expires: 90)
        XCTAssertEqual(again.status, 200, "still serving after a broken reload")
        let metrics = try SipwakeProcess.run("/usr/bin/curl", ["-s", "-H", "Authorization: Bearer \(Self.token)",
                                                               "http://127.0.0.1:\(httpPort)/metrics"]).stdout
        XCTAssertTrue(metrics.contains(#"sipwake_config_reloads_total{result="ok"} 1"#), metrics)
        XCTAssertTrue(metrics.contains(#"sipwake_config_reloads_total{result="failed"} 1"#), metrics)
    }

    func testAReloadNamingAnUnreadableKeyFileChangesNothing() async throws {
        let gateway = try await gateway()
        let server = try await startServer(config: """
            [auth]
            trusted_peers = ["127.0.0.2"]
            [push]
            gateway_url = "\(gateway.url)"
            timeout = 2
            [calls]
            wake_window = 2
            """)
        let missing = NSTemporaryDirectory() + "sipwake-missing-\(UUID().uuidString).p8"
        try editConfig(server) {
            $0.replacingOccurrences(of: "[push]\n", with: "[push]\nincoming_badge = 9\n") + """

                [apps.phone-ios]
                app_id = "com.example.phone"
                provider = "apns"
                key_file = "\(missing)"
                key_id = "ABC123DEFG"
                team_id = "DEF123GHIJ"
                bundle_id = "com.example.phone"
                """
        }
        try await reload(server)
        let failed = try XCTUnwrap(lines(server.log, containing: "config reload failed").first, server.log)
        XCTAssertTrue(failed.contains(" warning "), failed)
        XCTAssertTrue(failed.contains(missing), "the file is named: \(failed)")
        XCTAssertTrue(server.isRunning)

        // Nothing of that file applied: not even the badge beside it.
        let database = try SipwakeDatabase(path: server.directory.appendingPathComponent("sipwake.sqlite").path)
        _ = try TupleStore(database: database).report(
            username: "alice", selector: "sel-reload-key", appIDCalls: "com.example.voip", tokenCalls: "token-reload-key",
            appIDOther: nil, tokenOther: nil, platform: .ios, provider: nil, now: Date())
        let pbx = try await startPhone("pbx", host: "127.0.0.2")
        _ = await pbx.invite("sip:alice@localhost", via: server.proxy("udp"), headers: [("X-Push-ID", "pair-key")],
                             media: "audio", from: "<sip:1002@pbx.example.com>")
        let push = try XCTUnwrapAsync(await gateway.waitForPush("NotifyIncomingCall"), server.log)
        XCTAssertNotEqual(push["Badge"], "9", "the broken reload changed nothing")
    }

    func testANewTLSCertificateIsCheckedAndNamedAsNeedingARestart() async throws {
        try XCTSkipUnless(TestCertificate.opensslInstalled, "openssl is installed by scripts/install-deps --test")
        let first = try TestCertificate()
        let second = try TestCertificate()
        defer { first.remove(); second.remove() }
        let port = try TestPorts.free()
        let server = try await startServer(config: """
            [sip]
            listen = ["udp:127.0.0.1:\(try TestPorts.free())", "tls:127.0.0.1:\(port)"]
            \(first.configSection)
            """)
        for (from, to) in [(second.certificate, first.certificate), (second.key, first.key)] {
            try FileManager.default.removeItem(atPath: to)
            try FileManager.default.copyItem(atPath: from, toPath: to)
        }
        try await reload(server)
        let warning = try XCTUnwrap(lines(server.log, containing: "config change needs a restart").first, server.log)
        XCTAssertTrue(warning.contains("config.keys=tls.certificate"), warning)
    }
}
