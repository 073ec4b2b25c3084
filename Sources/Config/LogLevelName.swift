/// `[log] level`. The names are swift-log's `Logger.Level` cases; the caller maps them.
public enum LogLevelName: String, Sendable, Hashable, CaseIterable {
    case trace
    case debug
    case info
    case notice
    case warning
    case error
    case critical
}
