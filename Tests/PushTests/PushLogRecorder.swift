import InMemoryLogging
import Logging

/// Collects what the push client logs, as "level: message metadata".
struct PushLogRecorder {
    private let handler = InMemoryLogHandler()

    var logger: Logger {
        var logger = Logger(label: "push-test") { [handler] _ in handler }
        logger.logLevel = .trace
        return logger
    }

    var recorded: [String] {
        handler.entries.map { entry in
            let fields = entry.metadata.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " ")
            return "\(entry.level): \(entry.message) \(fields)"
        }
    }
}
