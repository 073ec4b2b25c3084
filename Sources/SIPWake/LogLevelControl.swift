import Logging
import Synchronization

/// The level every log handler of `sipwake serve` filters at, shared so a
/// reload (`SIGHUP` after `log.level` changed) takes effect at once in every
/// logger already made. Read on every log call, so it is one atomic load.
public final class LogLevelControl: Sendable {
    private static let levels = Logger.Level.allCases
    private let index: Atomic<Int>

    public init(_ level: Logger.Level) {
        index = Atomic(Self.levels.firstIndex(of: level) ?? 0)
    }

    public var level: Logger.Level {
        get { Self.levels[index.load(ordering: .relaxed)] }
        set { index.store(Self.levels.firstIndex(of: newValue) ?? 0, ordering: .relaxed) }
    }
}
