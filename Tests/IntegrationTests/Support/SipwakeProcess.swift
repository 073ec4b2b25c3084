import Foundation
import Glibc
import XCTest

/// A real `sipwake serve` process on loopback, with its own config file and
/// database in a fresh temporary directory. Also runs the CLI on that config.
final class SipwakeProcess: LogWatching, @unchecked Sendable {
    // Only touched from the test's own task; Process is not Sendable.
    let directory: URL
    let port: Int
    let configPath: String
    private var process: Process?
    private let logPath: String

    /// The built `sipwake` executable, next to the test bundle.
    static var executable: String {
        let bundleDir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidate = bundleDir.appendingPathComponent("sipwake").path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        // Running from inside the .xctest directory.
        return bundleDir.deletingLastPathComponent().appendingPathComponent("sipwake").path
    }

    /// The checkout these tests belong to (its `etc/`, `scripts/`).
    static var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    /// `config` is appended to a base with SIP on UDP and TCP on a free port.
    /// `authAlgorithms` nil leaves `auth.algorithms` out: the server's default.
    init(config extra: String = "", authAlgorithms: [String]? = ["SHA-256", "MD5"]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("sipwake-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        port = try TestPorts.free()
        configPath = directory.appendingPathComponent("sipwake.toml").path
        logPath = directory.appendingPathComponent("serve.log").path
        var sections = Self.parseSections(extra)
        var sip = sections.removeValue(forKey: "sip") ?? ""
        if !sip.contains("listen") { sip += "\nlisten = [\"udp:127.0.0.1:\(port)\", \"tcp:127.0.0.1:\(port)\"]" }
        if !sip.contains("domains") { sip += "\ndomains = [\"localhost\", \"127.0.0.1\"]" }
        var auth = sections.removeValue(forKey: "auth") ?? ""
        if let authAlgorithms, !auth.contains("algorithms") {
            auth += "\nalgorithms = [\(authAlgorithms.map { "\"\($0)\"" }.joined(separator: ", "))]"
        }
        var database = sections.removeValue(forKey: "database") ?? ""
        if !database.contains("path") && !database.contains("url") { database += "\npath = \"sipwake.sqlite\"" }
        // No HTTP server unless the test asks for one: many servers run at once.
        if sections["http"] == nil { sections["http"] = "\nlisten = \"\"" }
        var log = sections.removeValue(forKey: "log") ?? ""
        if !log.contains("level") { log += "\nlevel = \"debug\"" }
        var text = "[sip]\(sip)\n\n[auth]\(auth)\n\n[database]\(database)\n\n[log]\(log)\n"
        for (name, body) in sections { text += "\n[\(name)]\(body)\n" }
        try text.write(toFile: configPath, atomically: true, encoding: .utf8)
    }

    deinit {
        if let process, process.isRunning { process.terminate(); process.waitUntilExit() }
        try? FileManager.default.removeItem(at: directory)
    }

    /// `[section]` bodies of a TOML snippet, keyed by section name.
    private static func parseSections(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        var current: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("["), trimmed.hasSuffix("]") {
                current = String(trimmed.dropFirst().dropLast())
                result[current!, default: ""] += ""
            } else if let current, !trimmed.isEmpty {
                result[current, default: ""] += "\n" + trimmed
            }
        }
        return result
    }

    var uri: String { "sip:127.0.0.1:\(port)" }
    func proxy(_ transport: String = "udp") -> String { "sip:127.0.0.1:\(port);transport=\(transport)" }

    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Starts the server and waits until it listens.
    func start() async throws {
        FileManager.default.createFile(atPath: logPath, contents: nil)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Self.executable)
        p.arguments = ["serve", "--config", configPath]
        let handle = FileHandle(forWritingAtPath: logPath)!
        handle.seekToEndOfFile()
        p.standardOutput = handle
        p.standardError = handle
        p.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SIPWAKE_") }
        try p.run()
        process = p
        let listeningLines = log.components(separatedBy: "sip listening").count - 1
        for _ in 0..<200 {
            if log.components(separatedBy: "sip listening").count - 1 > listeningLines { return }
            if !p.isRunning { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw NSError(domain: "SipwakeProcess", code: 1,
                      userInfo: [NSLocalizedDescriptionKey: "server did not start:\n\(log)"])
    }

    /// Sends a signal and waits for the exit status.
    @discardableResult
    func stop(signal: Int32 = SIGTERM) async -> Int32 {
        guard let p = process else { return -1 }
        kill(p.processIdentifier, signal)
        for _ in 0..<200 where p.isRunning {
            try? await Task.sleep(for: .milliseconds(50))
        }
        if p.isRunning { p.terminate() }
        p.waitUntilExit()
        process = nil
        return p.terminationStatus
    }

    var isRunning: Bool { process?.isRunning ?? false }

    /// The server's process id while it runs.
    var pid: Int32? { process.flatMap { $0.isRunning ? $0.processIdentifier : nil } }

    /// The server's resident memory (VmRSS), nil when it is not running.
    var residentMemoryBytes: Int? {
        guard let pid, let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let kilobytes = line.split(separator: " ").compactMap { Int($0) }.first
            return kilobytes.map { $0 * 1024 }
        }
        return nil
    }

    struct CLIResult {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `sipwake ARGS --config <this config>`.
    func cli(_ arguments: [String], environment: [String: String] = [:], addConfig: Bool = true) throws -> CLIResult {
        try Self.run(Self.executable, arguments + (addConfig ? ["--config", configPath] : []), environment: environment)
    }

    /// Runs `sipwake ARGS --config <this config>` and checks that it fails
    /// (status 1) and says `message` on stderr. Returns what it printed.
    @discardableResult
    func assertCLIFails(_ arguments: [String], saying message: String, environment: [String: String] = [:],
                        file: StaticString = #filePath, line: UInt = #line) throws -> CLIResult {
        let result = try cli(arguments, environment: environment)
        XCTAssertEqual(result.status, 1, file: file, line: line)
        XCTAssertTrue(result.stderr.contains(message), result.stderr, file: file, line: line)
        return result
    }

    /// Runs `executable`, in `currentDirectory` when given, with the
    /// `SIPWAKE_*` variables of the test's environment removed.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                    currentDirectory: URL? = nil) throws -> CLIResult {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        if let currentDirectory { p.currentDirectoryURL = currentDirectory }
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SIPWAKE_") }
        env.merge(environment) { _, new in new }
        p.environment = env
        let out = Pipe()
        let err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return CLIResult(status: p.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                         stderr: String(decoding: errData, as: UTF8.self))
    }

    /// `registrations list --json`, decoded.
    func registrations(user: String? = nil) throws -> [[String: Any]] {
        var args = ["registrations", "list", "--json"]
        if let user { args += ["--user", user] }
        let result = try cli(args)
        guard result.status == 0 else { throw NSError(domain: "cli", code: Int(result.status), userInfo: [NSLocalizedDescriptionKey: result.stderr]) }
        return (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]) ?? []
    }

    func addUser(_ user: String, password: String) throws {
        let result = try cli(["users", "add", user, "--password", password])
        guard result.status == 0 else { throw NSError(domain: "cli", code: Int(result.status), userInfo: [NSLocalizedDescriptionKey: result.stderr]) }
    }
}
