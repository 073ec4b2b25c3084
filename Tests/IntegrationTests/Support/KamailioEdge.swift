import Foundation
import Glibc

/// Debian's Kamailio running the shipped edge configuration
/// (etc/kamailio/kamailio-edge.cfg, unchanged) in the foreground on a free
/// port of 127.0.0.3, in front of sipwake nodes on loopback. Only the
/// operator settings at the top of the file are given, as `-A` defines, the
/// way an operator may: the listen address, a dispatcher list naming the
/// nodes, and short health-check times.
final class KamailioEdge: LogWatching, @unchecked Sendable {
    // Only touched from the test's own task.
    static let executable = "/usr/sbin/kamailio"
    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    /// The shipped configuration under test.
    static var shippedConfig: String {
        SipwakeProcess.repository.appendingPathComponent("etc/kamailio/kamailio-edge.cfg").path
    }

    let host = "127.0.0.3"

    /// What a sipwake node behind the edge has in its config (docs/edge.md):
    /// Path accepted from the edge's address, calls from the PBX's
    /// (127.0.0.2, where the tests' PBX phones send from).
    static let nodeConfig = """
        [sip]
        edge_proxies = ["127.0.0.3"]
        [auth]
        trusted_peers = ["127.0.0.2"]
        """
    let port: Int
    let directory: URL
    private let arguments: [String]
    private let logPath: String
    /// Kamailio's main process while it runs.
    private var pid: pid_t?

    /// `nodes`: the SIP ports of the sipwake nodes on 127.0.0.1.
    /// `pingInterval` (s), `pingFailures`, `nodeTimeout` (ms): the cfg's
    /// PING_INTERVAL, PING_FAILURES, NODE_TIMEOUT.
    init(nodes: [Int], pingInterval: Int = 1, pingFailures: Int = 1, nodeTimeout: Int = 1000) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("sipwake-edge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        port = try TestPorts.free()
        logPath = directory.appendingPathComponent("kamailio.log").path
        let list = directory.appendingPathComponent("dispatcher.list").path
        try nodes.map { "1 sip:127.0.0.1:\($0) 0 0\n" }.joined().write(toFile: list, atomically: true, encoding: .utf8)
        arguments = [
            "-f", Self.shippedConfig, "-DD", "-E", "-Y", directory.path, "-w", directory.path,
            "-P", directory.appendingPathComponent("kamailio.pid").path, "-m", "32", "-M", "4",
            "-A", "EDGE_LISTEN=udp:\(host):\(port)", "-A", "DISPATCHER_LIST=\"\(list)\"",
            "-A", "PING_INTERVAL=\(pingInterval)", "-A", "PING_FAILURES=\(pingFailures)",
            "-A", "NODE_TIMEOUT=\(nodeTimeout)", "-A", "EDGE_CHILDREN=2",
        ]
    }

    deinit {
        // The tests call stop(); this only catches an edge never stopped.
        if let pid { killNow(pid, Self.children(of: pid)) }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Where phones send: `sip:127.0.0.3:PORT;transport=udp`.
    var proxy: String { "sip:\(host):\(port);transport=udp" }

    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Starts Kamailio and waits until it answers an OPTIONS keep-alive.
    func start() async throws {
        FileManager.default.createFile(atPath: logPath, contents: nil)
        pid = try Self.spawn([Self.executable] + arguments, output: logPath)
        let probe = try RawSIPSocket(udpTo: port, host: host)
        // Until Kamailio listens, a send only brings back "connection refused".
        for _ in 0..<150 where isRunning {
            probe.send(probe.request(method: "OPTIONS", uri: "sip:\(host):\(port)"))
            if let answer = probe.receive(timeout: 0.1), answer.hasPrefix("SIP/2.0 200") { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw NSError(domain: "KamailioEdge", code: 1,
                      userInfo: [NSLocalizedDescriptionKey: "kamailio did not start:\n\(log)"])
    }

    /// Whether the main process still runs (reaps it once it has exited).
    var isRunning: Bool {
        guard let pid else { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == 0 { return true }
        self.pid = nil
        return false
    }

    /// Stops Kamailio (SIGTERM, which its main process passes on to its
    /// workers) and waits for it to exit; whatever is left after 5 s, the
    /// main process and its workers, gets SIGKILL.
    func stop() async {
        guard let main = pid else { return }
        let workers = Self.children(of: main)
        kill(main, SIGTERM)
        for _ in 0..<100 where isRunning || workers.contains(where: { kill($0, 0) == 0 }) {
            try? await Task.sleep(for: .milliseconds(50))
        }
        killNow(main, workers)
    }

    private func killNow(_ main: pid_t, _ workers: [pid_t]) {
        for worker in workers { kill(worker, SIGKILL) }
        if isRunning {
            kill(main, SIGKILL)
            var status: Int32 = 0
            waitpid(main, &status, 0)
        }
        pid = nil
    }

    /// The processes `pid` forked (Kamailio's workers), from /proc.
    private static func children(of pid: pid_t) -> [pid_t] {
        let path = "/proc/\(pid)/task/\(pid)/children"
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: " ").compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// Starts `argv` with stdout and stderr appended to `output`, with no
    /// signal blocked and default handlers. Foundation's `Process` passes on
    /// the test thread's signal mask, in which SIGTERM and SIGALRM are
    /// blocked: Kamailio's workers would then never stop.
    private static func spawn(_ argv: [String], output: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_APPEND | O_CREAT, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD, SIGALRM, SIGUSR1, SIGUSR2] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var cArguments = argv.map { strdup($0) }
        cArguments.append(nil)
        defer { for argument in cArguments { free(argument) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, argv[0], &actions, &attributes, cArguments, environ)
        guard rc == 0 else {
            throw NSError(domain: "KamailioEdge", code: Int(rc),
                          userInfo: [NSLocalizedDescriptionKey: "cannot start \(argv[0]): \(String(cString: strerror(rc)))"])
        }
        return pid
    }
}
