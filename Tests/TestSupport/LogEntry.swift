import Logging

/// One logged event: its level, message and metadata as text.
public struct LogEntry: Sendable, Equatable {
    public var level: Logger.Level
    public var message: String
    public var metadata: [String: String]

    public init(level: Logger.Level, message: String, metadata: [String: String]) {
        self.level = level
        self.message = message
        self.metadata = metadata
    }
}
