import Foundation
import Synchronization

/// A throwaway PostgreSQL cluster for the tests: Debian's server (installed
/// by `scripts/install-deps --test`), initialised under `.build/` (the
/// temporary directory when the postgres user cannot reach it) on first
/// use, listening on a free loopback port with its unix socket in its own
/// directory, and stopped and removed when the test process exits. initdb
/// refuses to run as root, so as root (CI) the cluster belongs to the
/// `postgres` system user and its commands run as that user.
///
/// Each test asks for a database of its own (`makeDatabase()`), so tests
/// never see each other's rows.
public final class PostgreSQLTestCluster: Sendable {
    public static let binaries = "/usr/lib/postgresql/15/bin"
    public static let username = "sipwake"
    public static let password = "test-Secret-4711"

    /// The cluster of this test process, started at the first call.
    public static func shared() throws -> PostgreSQLTestCluster {
        try sharedCluster.withLock { cluster in
            if let cluster { return cluster }
            let started = try PostgreSQLTestCluster()
            cluster = started
            atexit {
                PostgreSQLTestCluster.sharedCluster.withLock { $0 }?.remove()
            }
            return started
        }
    }

    private static let sharedCluster = Mutex<PostgreSQLTestCluster?>(nil)

    public let host = "127.0.0.1"
    public let port: Int
    public let directory: URL
    private let counter = Mutex(0)

    private var data: String { directory.appendingPathComponent("data").path }
    private var asRoot: Bool { getuid() == 0 }

    private init() throws {
        let build = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build")
        let name = "pg-test-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        var directory = build.appendingPathComponent(name)
        port = try Self.freePort()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if getuid() == 0 {
            try Self.run("/bin/chown", ["postgres:postgres", directory.path])
            // A checkout under a directory the postgres user cannot enter
            // (root's home): the cluster goes to the temporary directory.
            if (try? Self.run("/usr/sbin/runuser", ["-u", "postgres", "--", "/usr/bin/test", "-w", directory.path])) == nil {
                try? FileManager.default.removeItem(at: directory)
                directory = FileManager.default.temporaryDirectory.appendingPathComponent("sipwake-\(name)")
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try Self.run("/bin/chown", ["postgres:postgres", directory.path])
            }
        }
        self.directory = directory
        let passwordFile = directory.appendingPathComponent("password")
        try Self.password.write(to: passwordFile, atomically: true, encoding: .utf8)
        if asRoot {
            try Self.run("/bin/chown", ["-R", "postgres:postgres", directory.path])
        }
        try runAsOwner("initdb", ["-D", data, "-U", Self.username, "--auth=scram-sha-256",
                                  "--pwfile=\(passwordFile.path)", "-E", "UTF8", "--locale=C.UTF-8"])
        try start()
    }

    /// Starts the server (again, after `stop()`), waiting until it accepts connections.
    public func start() throws {
        try runAsOwner("pg_ctl", [
            "-D", data, "-l", directory.appendingPathComponent("server.log").path, "-w", "-t", "60",
            "-o", "-p \(port) -k \(directory.path) -c listen_addresses=\(host)", "start",
        ])
    }

    /// Stops the server at once, as a crash or a restart would look to its clients.
    public func stop() throws {
        try runAsOwner("pg_ctl", ["-D", data, "-w", "-m", "fast", "stop"])
    }

    /// A new, empty database; its name.
    public func makeDatabase() throws -> String {
        let n = counter.withLock { value -> Int in
            value += 1
            return value
        }
        let name = "sipwake_test_\(n)_\(UInt32.random(in: 0 ... .max))"
        try psql("CREATE DATABASE \(name)")
        return name
    }

    /// `postgres://…` for `database`, as an operator writes it in `[database] url`.
    public func url(database: String) -> String {
        "postgres://\(Self.username):\(Self.password)@\(host):\(port)/\(database)"
    }

    /// Runs SQL as the cluster's superuser, over the unix socket.
    public func psql(_ sql: String, database: String = "postgres") throws {
        try runAsOwner("psql", ["-h", directory.path, "-p", "\(port)", "-U", Self.username, "-d", database,
                                "-v", "ON_ERROR_STOP=1", "-q", "-c", sql],
                       environment: ["PGPASSWORD": Self.password])
    }

    private func remove() {
        try? runAsOwner("pg_ctl", ["-D", data, "-m", "immediate", "stop"])
        try? FileManager.default.removeItem(at: directory)
    }

    private func runAsOwner(_ tool: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        let path = "\(Self.binaries)/\(tool)"
        if asRoot {
            let assignments = environment.map { "\($0.key)=\($0.value)" }
            // From a directory the postgres user may enter.
            try Self.run("/usr/sbin/runuser",
                         ["-u", "postgres", "--", "/usr/bin/env", "--chdir=/"] + assignments + [path] + arguments)
        } else {
            try Self.run(path, arguments, environment: environment)
        }
    }

    /// Runs a tool and waits for it with `waitpid`: Foundation's `Process`
    /// never sees pg_ctl end while the server it started lives on.
    private static func run(_ path: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        let outputPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("sipwake-pg-\(UUID().uuidString).out").path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let env = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0.key)=\($0.value)" }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard spawned == 0 else { throw ClusterError(description: "cannot run \(path): errno \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        // WIFEXITED and WEXITSTATUS, spelled out: Swift does not import the macros.
        let exitedCleanly = (status & 0x7f) == 0 && ((status >> 8) & 0xff) == 0
        guard exitedCleanly else {
            let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            throw ClusterError(description: "\(path) \(arguments.joined(separator: " ")) failed (status \(status)): \(text)")
        }
    }

    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else { throw ClusterError(description: "no free loopback port") }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
