import Foundation
import Model

/// Collects results that completions report from the writer thread.
///
/// `@unchecked Sendable` is safe: the only mutable state, `entries`, is
/// private and touched only while `lock` is held (`append`, `snapshot`).
final class CompletionLog: @unchecked Sendable {
    struct Entry {
        var label: String
        var succeeded: Bool
        var error: Error?
        var threadName: String?
    }

    private let lock = NSLock()
    private var entries: [Entry] = []

    func append(_ label: String, _ result: Result<Void, Error>) {
        let name = ThreadName.current
        lock.lock()
        defer { lock.unlock() }
        switch result {
        case .success:
            entries.append(Entry(label: label, succeeded: true, error: nil, threadName: name))
        case .failure(let error):
            entries.append(Entry(label: label, succeeded: false, error: error, threadName: name))
        }
    }

    var snapshot: [Entry] {
        lock.lock()
        defer { lock.unlock() }
        return entries
    }
}
