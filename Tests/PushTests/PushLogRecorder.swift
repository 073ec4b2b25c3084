import Logging
import Synchronization

/// Collects what the push client logs, as "level: message metadata".
final class PushLogRecorder: Sendable {
    private let lines = Mutex<[String]>([])

    var logger: Logger {
        Logger(label: "push-test") { _ in PushLogRecorderHandler(recorder: self) }
    }

    var recorded: [String] { lines.withLock { $0 } }

    func record(_ line: String) {
        lines.withLock { $0.append(line) }
    }
}
