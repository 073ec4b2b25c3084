import Foundation
import Glibc

/// Debian's baresip (1.0) as a headless softphone with one account: its
/// config directory (`config`, `accounts`) in a fresh temporary directory,
/// SIP on a free loopback port, everything it prints in a file there.
/// `stop()` ends it; the directory goes with the object.
final class BaresipProcess {
    static let executable = "/usr/bin/baresip"
    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    let directory: URL
    /// The port baresip listens on (UDP and TCP, 127.0.0.1).
    let port: Int
    private let outputPath: String
    private var process: Process?

    /// `account` is one line of baresip's `accounts` file, e.g.
    /// `<sip:alice@127.0.0.1:5060>;auth_pass=secret;regint=300`.
    init(account: String) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("baresip-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        port = try TestPorts.free()
        outputPath = directory.appendingPathComponent("baresip.out").path
        try (account + "\n").write(to: directory.appendingPathComponent("accounts"), atomically: true, encoding: .utf8)
        // No audio driver and no console: registration needs neither. menu
        // prints the registration's outcome ("200 OK", or the error).
        let config = """
            sip_listen 127.0.0.1:\(port)
            module_path /usr/lib/baresip/modules
            module g711.so
            module_app account.so
            module_app menu.so

            """
        try config.write(to: directory.appendingPathComponent("config"), atomically: true, encoding: .utf8)
    }

    deinit {
        if let process, process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Everything baresip printed so far.
    var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }

    var isRunning: Bool { process?.isRunning ?? false }

    /// Starts `baresip -f <directory>`; it registers at once.
    func start() throws {
        FileManager.default.createFile(atPath: outputPath, contents: nil)
        let handle = FileHandle(forWritingAtPath: outputPath)!
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Self.executable)
        p.arguments = ["-f", directory.path]
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = handle
        p.standardError = handle
        try p.run()
        process = p
    }

    /// Waits until baresip prints `text` or exits; true when it printed it.
    func waitForOutput(_ text: String, timeout: Duration = .seconds(10)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if output.contains(text) { return true }
            if !isRunning { break }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return output.contains(text)
    }

    /// SIGTERM (baresip unregisters and quits), SIGKILL after 5 s.
    func stop() async {
        guard let p = process else { return }
        if p.isRunning { kill(p.processIdentifier, SIGTERM) }
        for _ in 0..<100 where p.isRunning {
            try? await Task.sleep(for: .milliseconds(50))
        }
        if p.isRunning { kill(p.processIdentifier, SIGKILL) }
        p.waitUntilExit()
        process = nil
    }
}
