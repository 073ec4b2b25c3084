import Logging
import Synchronization

/// Keeps every event the API logs, level, message and metadata apart, so a
/// test can ask for the lines fail2ban would match and their keys.
final class APILogRecorder: Sendable {
    struct Entry: Sendable, Equatable {
        var level: Logger.Level
        var message: String
        var metadata: [String: String]
    }

    private let entries = Mutex<[Entry]>([])

    var logger: Logger {
        Logger(label: "api-test") { _ in APILogRecorderHandler(recorder: self) }
    }

    var all: [Entry] { entries.withLock { $0 } }

    /// The entries with this message.
    func entries(_ message: String) -> [Entry] {
        all.filter { $0.message == message }
    }

    func record(_ entry: Entry) {
        entries.withLock { $0.append(entry) }
    }
}
