import InMemoryLogging
import Logging

/// Keeps every event a component logs, so a test can check what operators
/// would read in the log: the lines, their levels and their metadata.
public struct LogRecorder: Sendable {
    private let handler = InMemoryLogHandler()
    private let label: String

    public init(label: String = "sipwake.tests") {
        self.label = label
    }

    /// A logger at trace level whose events all land here.
    public var logger: Logger {
        var logger = Logger(label: label) { [handler] _ in handler }
        logger.logLevel = .trace
        return logger
    }

    /// Every event, in order.
    public var all: [LogEntry] {
        handler.entries.map {
            LogEntry(level: $0.level, message: "\($0.message)", metadata: $0.metadata.mapValues { "\($0)" })
        }
    }

    /// The events with this message.
    public func entries(_ message: String) -> [LogEntry] {
        all.filter { $0.message == message }
    }

    /// Every event as "level: message".
    public var recorded: [String] { all.map { "\($0.level): \($0.message)" } }

    /// Every event as "level: message key=value …", the keys sorted.
    public var recordedWithMetadata: [String] {
        all.map { entry in
            let fields = entry.metadata.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " ")
            return "\(entry.level): \(entry.message) \(fields)"
        }
    }
}
