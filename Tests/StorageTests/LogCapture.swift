import InMemoryLogging
import Logging

/// Records what a writer logs, as "level: message", to check what it reported.
struct LogCapture {
    private let handler = InMemoryLogHandler()

    var logger: Logger {
        var logger = Logger(label: "sipwake.storage.tests") { [handler] _ in handler }
        logger.logLevel = .trace
        return logger
    }

    var recorded: [String] { handler.entries.map { "\($0.level): \($0.message)" } }
}
