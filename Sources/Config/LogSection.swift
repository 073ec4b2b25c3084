/// `[log]`: level and output format.
public struct LogSection: Sendable, Hashable {
    public var level: LogLevelName
    public var format: LogFormat

    public init(level: LogLevelName = .info, format: LogFormat = .text) {
        self.level = level
        self.format = format
    }
}
