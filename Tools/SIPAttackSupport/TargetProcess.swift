import Glibc

/// The server under attack, watched through /proc (`--pid`).
public struct TargetProcess: Sendable {
    public let pid: Int32

    public init(pid: Int32) { self.pid = pid }

    /// False once the process is gone or a zombie (exited, not yet reaped by
    /// its parent, which is what a test harness that started it leaves).
    public var isAlive: Bool {
        guard let stat = Self.read("/proc/\(pid)/stat") else { return false }
        // "PID (comm) S ...": the state follows the last ')'.
        guard let close = stat.lastIndex(of: ")") else { return false }
        let state = stat[stat.index(after: close)...].drop(while: { $0 == " " }).first
        return state != "Z" && state != "X" && state != "x"
    }

    /// VmRSS from /proc/PID/status, in bytes; nil when the process is gone.
    public var residentBytes: Int? {
        guard let status = Self.read("/proc/\(pid)/status") else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return line.split(separator: " ").compactMap { Int($0) }.first.map { $0 * 1024 }
        }
        return nil
    }

    private static func read(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
