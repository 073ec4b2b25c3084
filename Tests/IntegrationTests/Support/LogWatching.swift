import Foundation

/// A process of a test (a sipwake node, the Kamailio edge) whose log the
/// test reads to learn what it did.
protocol LogWatching {
    /// Everything the process has logged so far.
    var log: String { get }
}

extension LogWatching {
    /// Waits until the log has `text` at least `count` times.
    func waitForLog(_ text: String, count: Int = 1, timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if log.components(separatedBy: text).count - 1 >= count { return true }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    /// The log lines that have every one of `parts`.
    func logLines(with parts: String...) -> [Substring] {
        log.split(separator: "\n").filter { line in parts.allSatisfy { line.contains($0) } }
    }
}
