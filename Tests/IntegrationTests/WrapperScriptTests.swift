import Foundation
import XCTest

/// `scripts/sipwake`, the wrapper the README starts with: it builds only when
/// the binary is missing or older than the sources, installs Debian packages
/// only when it builds, and keeps the build's output out of the command's.
///
/// The wrapper runs on a copy of the repository's layout in a temporary
/// directory, with `swift` and `scripts/install-deps` replaced by scripts
/// that note each call: a real release build takes minutes.
final class WrapperScriptTests: XCTestCase {
    private var root: URL!
    private var calls: URL { root.appendingPathComponent("calls.log") }
    private var checkout: URL { root.appendingPathComponent("checkout") }

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("wrapper-\(UUID().uuidString)")
        let scripts = checkout.appendingPathComponent("scripts")
        for dir in [scripts, checkout.appendingPathComponent("Sources/sipwake"), checkout.appendingPathComponent("etc"),
                    root.appendingPathComponent("bin")] {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        }
        try FileManager.default.copyItem(at: SipwakeProcess.repository.appendingPathComponent("scripts/sipwake"),
                                         to: scripts.appendingPathComponent("sipwake"))
        try write("#!/bin/sh\necho install-deps >> '\(calls.path)'\necho 'sipwake: installing Debian packages: none'\n",
                  to: scripts.appendingPathComponent("install-deps"))
        // Builds the way SwiftPM does as far as the wrapper can see: chatter
        // on stdout and stderr, then the binary; or fails.
        try write("""
            #!/bin/sh
            echo "swift $*" >> '\(calls.path)'
            echo "Compiling sipwake main.swift"
            echo "warning: chatter on stderr" >&2
            if [ -n "$FAIL_BUILD" ]; then echo "error: no such module 'Nope'"; exit 1; fi
            mkdir -p .build/release
            printf '#!/bin/sh\\necho "ran: $*"\\n' > .build/release/sipwake
            chmod +x .build/release/sipwake
            echo "Build complete!"
            """, to: root.appendingPathComponent("bin/swift"))
        try write("// swift-tools-version:6.1\n", to: checkout.appendingPathComponent("Package.swift"))
        try write("print(1)\n", to: checkout.appendingPathComponent("Sources/sipwake/main.swift"))
        try write("[sip]\n", to: checkout.appendingPathComponent("etc/sipwake.toml"))
        for source in ["Package.swift", "Sources/sipwake/main.swift", "Sources/sipwake", "Sources"] {
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-100)],
                                                  ofItemAtPath: checkout.appendingPathComponent(source).path)
        }
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    private func write(_ text: String, to file: URL) throws {
        try text.write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file.path)
    }

    /// Marks `path` (under the checkout) as changed after the last build
    /// (the sources were written 100 s ago).
    private func touch(_ path: String) throws {
        for (file, age) in [(".build/release/sipwake", -10.0), (path, -5.0)] {
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(age)],
                                                  ofItemAtPath: checkout.appendingPathComponent(file).path)
        }
    }

    /// Runs the wrapper from the temporary directory, not the checkout.
    private func wrapper(_ arguments: [String], failBuild: Bool = false) throws -> SipwakeProcess.CLIResult {
        var environment = ["PATH": root.appendingPathComponent("bin").path + ":/usr/bin:/bin"]
        if failBuild { environment["FAIL_BUILD"] = "1" }
        return try SipwakeProcess.run(checkout.appendingPathComponent("scripts/sipwake").path, arguments,
                                      environment: environment, currentDirectory: root)
    }

    private func takeCalls() throws -> [String] {
        let text = (try? String(contentsOf: calls, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(at: calls)
        return text.split(separator: "\n").map(String.init)
    }

    private let build = ["install-deps", "swift build -c release --product sipwake"]

    func testBuildsOnceThenRunsTheBinaryWithOnlyItsOwnOutput() throws {
        let first = try wrapper(["users", "list"])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(first.stdout, "ran: users list\n", "the build's output is not the command's")
        XCTAssertEqual(first.stderr, "building sipwake… (log: .build/sipwake-build.log)\n")
        XCTAssertEqual(try takeCalls(), build)
        let log = try String(contentsOf: checkout.appendingPathComponent(".build/sipwake-build.log"), encoding: .utf8)
        XCTAssertTrue(log.contains("Compiling sipwake") && log.contains("chatter on stderr"), log)

        let second = try wrapper(["users", "list", "--json"])
        XCTAssertEqual(second.stdout, "ran: users list --json\n")
        XCTAssertEqual(second.stderr, "", "no build, no note")
        XCTAssertEqual(try takeCalls(), [], "neither install-deps nor swift ran")
    }

    func testASourceChangeRebuildsAndAConfigChangeDoesNot() throws {
        XCTAssertEqual(try wrapper(["config", "check"]).status, 0)
        XCTAssertEqual(try takeCalls(), build)
        try touch("etc/sipwake.toml")
        XCTAssertEqual(try wrapper(["config", "check"]).stderr, "")
        XCTAssertEqual(try takeCalls(), [], "etc/ is not a source")
        try touch("Sources/sipwake/main.swift")
        let rebuilt = try wrapper(["config", "check"])
        XCTAssertTrue(rebuilt.stderr.hasPrefix("building sipwake"), rebuilt.stderr)
        XCTAssertEqual(try takeCalls(), build)
        try touch("Package.swift")
        _ = try wrapper(["config", "check"])
        XCTAssertEqual(try takeCalls(), build)
        XCTAssertEqual(try wrapper(["config", "check"]).stderr, "")
        XCTAssertEqual(try takeCalls(), [])
    }

    func testAFailedBuildShowsItsOutputAndRunsNothing() throws {
        XCTAssertEqual(try wrapper(["users", "list"]).status, 0)
        _ = try takeCalls()
        try touch("Sources/sipwake/main.swift")
        let failed = try wrapper(["users", "list"], failBuild: true)
        XCTAssertEqual(failed.status, 1)
        XCTAssertEqual(failed.stdout, "", "the old binary did not run")
        XCTAssertTrue(failed.stderr.contains("error: no such module 'Nope'"), failed.stderr)
        XCTAssertTrue(failed.stderr.contains("the build failed"), failed.stderr)
        XCTAssertEqual(try takeCalls(), build)
        let next = try wrapper(["users", "list"])
        XCTAssertTrue(next.stderr.hasPrefix("building sipwake"), "still stale after a failed build: \(next.stderr)")
    }

    func testWithoutArgumentsItServesTheSampleConfig() throws {
        let r = try wrapper([])
        XCTAssertEqual(r.stdout, "ran: serve --config \(checkout.path)/etc/sipwake.toml\n")
    }
}
