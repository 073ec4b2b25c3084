import Foundation
import XCTest

/// The CLI never surprises: it reads the same config and `SIPWAKE_*`
/// overrides as the server, finds the sample config from any directory or
/// says how to name one, and says which database an empty list came from.
final class CLIConfigTests: IntegrationTestCase {
    func testTheCLIReadsTheServersEnvironmentOverrides() throws {
        let server = try SipwakeProcess()
        let other = ["SIPWAKE_DATABASE_PATH": server.directory.appendingPathComponent("other.sqlite").path]
        XCTAssertEqual(try server.cli(["users", "add", "carol", "--password", "pw"], environment: other).status, 0)
        let there = try server.cli(["users", "list", "--json"], environment: other)
        XCTAssertTrue(there.stdout.contains("\"carol\""), there.stdout)
        let here = try server.cli(["users", "list", "--json"])
        XCTAssertFalse(here.stdout.contains("carol"), "the config's own database has no carol: \(here.stdout)")
    }

    func testEmptyListsNameTheirDatabaseOnStderrAndKeepJSONClean() throws {
        let server = try SipwakeProcess()
        let database = server.directory.appendingPathComponent("sipwake.sqlite").path
        let lists: [([String], String)] = [
            (["users", "list"], "users"), (["registrations", "list"], "bindings"),
            (["registrations", "list", "--user", "Alice"], "bindings of alice"), (["tuples", "list"], "tuples"),
            (["tuples", "list", "--user", "alice"], "tuples of alice"), (["calls", "list"], "calls"),
            (["calls", "list", "--user", "alice", "--outcome", "no-answer"], "no-answer calls to alice"),
        ]
        for (arguments, noun) in lists {
            let json = try server.cli(arguments + ["--json"])
            XCTAssertEqual(json.status, 0, json.stderr)
            let rows = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [Any]
            XCTAssertEqual(rows?.count, 0, "\(arguments): only the JSON on stdout: \(json.stdout)")
            XCTAssertEqual(json.stderr, "no \(noun) in database \(database) (config \(server.configPath))\n")
            XCTAssertEqual(try server.cli(arguments).stderr, json.stderr, "\(arguments) as a table")
        }
        try server.addUser("alice", password: "pw")
        let listed = try server.cli(["users", "list", "--json"])
        XCTAssertEqual(listed.stderr, "", "no note when something is listed")
    }

    func testFromAnotherDirectoryWithoutConfigItFindsTheSampleConfig() throws {
        let elsewhere = try SipwakeProcess()
        let sample = SipwakeProcess.repository.appendingPathComponent("etc/sipwake.toml").standardizedFileURL.path
        let r = try SipwakeProcess.run(SipwakeProcess.executable, ["config", "check"],
                                       currentDirectory: elsewhere.directory)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout.split(separator: "\n").first.map(String.init), "ok: \(sample)")
        let named = try SipwakeProcess.run(SipwakeProcess.executable, ["config", "check"],
                                           environment: ["SIPWAKE_CONFIG": elsewhere.configPath],
                                           currentDirectory: elsewhere.directory)
        XCTAssertEqual(named.stdout.split(separator: "\n").first.map(String.init), "ok: \(elsewhere.configPath)")
    }

    func testWithoutAConfigAnywhereItSaysHowToNameOne() throws {
        try XCTSkipIf(FileManager.default.fileExists(atPath: "/etc/sipwake/sipwake.toml"),
                      "this machine has an installed config, which would be found")
        // The binary outside any checkout, run from a directory without etc/.
        let place = try SipwakeProcess()
        let binary = place.directory.appendingPathComponent("sipwake")
        do {
            try FileManager.default.linkItem(atPath: SipwakeProcess.executable, toPath: binary.path)
        } catch {
            try FileManager.default.copyItem(atPath: SipwakeProcess.executable, toPath: binary.path)
        }
        let before = try FileManager.default.contentsOfDirectory(atPath: place.directory.path).sorted()
        for arguments in [["users", "list"], ["serve"]] {
            let r = try SipwakeProcess.run(binary.path, arguments, currentDirectory: place.directory)
            XCTAssertEqual(r.status, 1)
            XCTAssertEqual(r.stdout, "")
            XCTAssertEqual(r.stderr, """
                Error: no configuration file found (looked for etc/sipwake.toml in \(place.directory.path), \
                /etc/sipwake/sipwake.toml); name one with --config FILE or SIPWAKE_CONFIG=FILE

                """)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: place.directory.path).sorted(), before,
                       "no database was created")
    }
}
