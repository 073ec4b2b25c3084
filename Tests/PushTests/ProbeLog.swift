import Ports
import Synchronization

/// What the transport did with a ``ProbeProvider``: the name of each thread
/// that built one of its requests, and the header lines of each answer it read.
final class ProbeLog: Sendable {
    private let state = Mutex<(threads: [String?], answerHeaders: [[PushHTTPHeader]])>(([], []))

    func requestBuilt(onThread name: String?) {
        state.withLock { $0.threads.append(name) }
    }

    func answerRead(headers: [PushHTTPHeader]) {
        state.withLock { $0.answerHeaders.append(headers) }
    }

    var threads: [String?] { state.withLock { $0.threads } }
    var answerHeaders: [[PushHTTPHeader]] { state.withLock { $0.answerHeaders } }
}
