import Model
import Push
import Synchronization

/// Every result a client gave, by push Id, to check that each push completes exactly once.
final class ResultTally: Sendable {
    private let results = Mutex<[String: [PushResult]]>([:])

    func add(_ result: PushResult, for id: String) {
        results.withLock { $0[id, default: []].append(result) }
    }

    var byID: [String: [PushResult]] {
        results.withLock { $0 }
    }

    /// The only result of `id`; nil when it has none or more than one.
    func single(_ id: String) -> PushResult? {
        results.withLock { $0[id]?.count == 1 ? $0[id]?.first : nil }
    }
}
