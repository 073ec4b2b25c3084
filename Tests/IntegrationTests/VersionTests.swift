import Foundation
import XCTest

/// `sipwake --version` and the start-up line: which build is running, on
/// which config, database and push providers.
final class VersionTests: IntegrationTestCase {
    /// `git rev-parse --short HEAD` of this checkout, "unknown" outside one.
    private func checkoutCommit() throws -> String {
        let git = try SipwakeProcess.run("/usr/bin/env", ["git", "-C", SipwakeProcess.repository.path,
                                                          "rev-parse", "--short", "HEAD"])
        let commit = git.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        return git.status == 0 && !commit.isEmpty ? commit : "unknown"
    }

    func testVersionNamesTheReleaseAndTheCommitItWasBuiltFrom() throws {
        let r = try SipwakeProcess.run(SipwakeProcess.executable, ["--version"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let commit = try checkoutCommit()
        let match = try XCTUnwrap(r.stdout.wholeMatch(of: /sipwake (\d+\.\d+\.\d+) \(commit ([0-9a-z]+)\)\n/), r.stdout)
        XCTAssertEqual(String(match.2), commit, "built from this checkout's HEAD")
        XCTAssertEqual(r.stderr, "")
    }

    func testTheStartUpLineNamesVersionConfigDatabaseAndPushProviders() async throws {
        let server = try await startServer(config: """
            [log]
            format = "json"
            level = "info"
            [push]
            gateway_url = "http://127.0.0.1:9/pnm2/send?key=not-for-logs"
            """)
        await server.stop()
        let lines = server.log.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let start = try XCTUnwrap(lines.first { $0["msg"] as? String == "sipwake starting" }, server.log)
        let version = try SipwakeProcess.run(SipwakeProcess.executable, ["--version"]).stdout
        XCTAssertEqual(start["level"] as? String, "info")
        XCTAssertEqual("sipwake \(start["sipwake.version"] as? String ?? "")\n", version)
        XCTAssertEqual(start["config.file"] as? String, server.configPath)
        XCTAssertEqual(start["database.path"] as? String, server.directory.appendingPathComponent("sipwake.sqlite").path)
        XCTAssertEqual(start["push.providers"] as? String, "acrobits-gateway:127.0.0.1")
        XCTAssertFalse(server.log.contains("not-for-logs"), "only the host of a provider's URL is logged")
        XCTAssertEqual(lines.firstIndex { $0["msg"] as? String == "sipwake starting" }, 0, "the first line")
    }

    func testThePushProvidersOfTheStartUpLine() async throws {
        let secret = String(repeating: "s", count: 40)
        let server = try await startServer(config: """
            [push]
            gateway_url = ""
            [webhook]
            url = "https://backend.example/sipwake"
            secrets = ["\(secret)"]
            """)
        XCTAssertTrue(server.log.contains("push.providers=webhook:backend.example"), server.log)
        XCTAssertFalse(server.log.contains(secret))
        let off = try await startServer(config: "[push]\nenabled = false")
        XCTAssertTrue(off.log.contains("push.providers=off"), off.log)
    }
}
