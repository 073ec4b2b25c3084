import Dispatch
import Model
import Ports

/// Reads users from the store off the SIP loop and off Swift's cooperative
/// threads: each read runs on the directory's own queue, and the caller
/// awaits its answer, so a slow disk holds up neither SIP nor other tasks.
struct UserDirectory: Sendable {
    private let store: any UserRepository
    private let queue = DispatchQueue(label: "sipwake.users")

    init(store: any UserRepository) {
        self.store = store
    }

    func find(_ username: String) async -> UserRecord? {
        await onQueue { [store] in try? store.find(username: username.lowercased()) }
    }

    /// Every user and the version they were read at, when the version differs from `known`.
    func snapshot(ifChangedFrom known: Int64) async throws -> (records: [UserRecord], version: Int64)? {
        try await onQueue { [store] in
            let version = try store.usersVersion()
            guard version != known else { return nil }
            return (try store.list(), version)
        }
    }

    private func onQueue<T: Sendable>(_ read: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try read() }) }
        }
    }

    private func onQueue<T: Sendable>(_ read: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: read()) }
        }
    }
}
