import Foundation
import Logging

/// A `LogHandler` that records messages, to check what the writer reported.
///
/// `@unchecked Sendable` is safe: the only mutable state, `messages`, is
/// private and touched only while `lock` is held.
final class LogCapture: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [String] = []

    var logger: Logger {
        Logger(label: "sipwake.storage.tests") { _ in CapturingLogHandler(capture: self) }
    }

    var recorded: [String] {
        lock.lock()
        defer { lock.unlock() }
        return messages
    }

    func record(_ message: String) {
        lock.lock()
        defer { lock.unlock() }
        messages.append(message)
    }
}
