import InMemoryLogging
import Logging

/// Keeps every event the API logs, level, message and metadata apart, so a
/// test can ask for the lines fail2ban would match and their keys.
struct APILogRecorder {
    struct Entry: Sendable, Equatable {
        var level: Logger.Level
        var message: String
        var metadata: [String: String]
    }

    private let handler = InMemoryLogHandler()

    var logger: Logger {
        var logger = Logger(label: "api-test") { [handler] _ in handler }
        logger.logLevel = .trace
        return logger
    }

    var all: [Entry] {
        handler.entries.map {
            Entry(level: $0.level, message: "\($0.message)", metadata: $0.metadata.mapValues { "\($0)" })
        }
    }

    /// The entries with this message.
    func entries(_ message: String) -> [Entry] {
        all.filter { $0.message == message }
    }
}
