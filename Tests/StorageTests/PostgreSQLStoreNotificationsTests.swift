import Foundation
import Model
import Ports
@testable import PostgreSQLStorage
import Synchronization
import TestSupport
import Testing

/// Every kind of write another process commits reaches a node LISTENing on
/// the same database as the change it names, so each of the node's caches
/// reads at once; a rolled-back write announces nothing.
@Suite struct PostgreSQLStoreNotificationsTests {
    /// Listens on `database` and returns what it heard, once every kind
    /// was first reported for the LISTEN being in place.
    private func listening(on database: PostgreSQLDatabase) async throws -> (Task<Void, Never>, HeardChanges) {
        let heard = HeardChanges()
        let notifications = PostgreSQLStoreNotifications(database: database)
        let task = Task { await notifications.listen({ heard.add($0) }, failed: { _ in }) }
        for _ in 0..<250 where heard.all.count < StoreChange.allCases.count {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(Set(heard.all) == Set(StoreChange.allCases), "every kind once the LISTEN is in place")
        heard.clear()
        return (task, heard)
    }

    private func wait(for change: StoreChange, in heard: HeardChanges) async throws -> Bool {
        for _ in 0..<250 where !heard.all.contains(change) { try await Task.sleep(for: .milliseconds(20)) }
        return heard.all.contains(change)
    }

    @Test func eachKindOfCommitFromAnotherProcessIsHeard() async throws {
        let (writer, node) = try PostgreSQLBindingEventFeedTests().open()
        defer { writer.close(); node.close() }
        let (task, heard) = try await listening(on: node)
        defer { task.cancel() }
        let stores = writer.stores

        _ = try stores.users.add(username: "carol", realm: "sipwake", ha1MD5: String(repeating: "a", count: 32), ha1SHA256: String(repeating: "b", count: 64))
        #expect(try await wait(for: .users, in: heard))
        #expect(heard.all == [.users], "a user write names only the users")

        heard.clear()
        _ = try stores.tuples.report(username: "carol", selector: "sel-carol", appIDCalls: "com.example.voip",
                                     tokenCalls: "token-carol", appIDOther: nil, tokenOther: nil,
                                     platform: .ios, provider: nil, now: Date())
        #expect(try await wait(for: .tuples, in: heard))

        heard.clear()
        let binding = BindingFixture.contact()
        try PostgreSQLBindingStore(database: writer).apply([.added(binding)])
        #expect(try await wait(for: .bindings, in: heard))

        heard.clear()
        #expect(try stores.bindings.delete(aor: binding.aor, contact: binding.contact))
        #expect(try await wait(for: .bindingDeletions, in: heard))
    }

    @Test func aRolledBackWriteAnnouncesNothing() async throws {
        let (writer, node) = try PostgreSQLBindingEventFeedTests().open()
        defer { writer.close(); node.close() }
        let (task, heard) = try await listening(on: node)
        defer { task.cancel() }
        var bad = BindingFixture.contact()
        bad.aor = "bob\u{0}"   // PostgreSQL refuses NUL in text: the commit fails
        #expect(throws: (any Error).self) { try PostgreSQLBindingStore(database: writer).apply([.added(bad)]) }
        // A later good write is heard, and only it.
        _ = try writer.stores.users.add(username: "dave", realm: "sipwake", ha1MD5: String(repeating: "a", count: 32), ha1SHA256: String(repeating: "b", count: 64))
        #expect(try await wait(for: .users, in: heard))
        #expect(!heard.all.contains(.bindings))
    }
}

/// The changes a listener heard, in order.
final class HeardChanges: Sendable {
    private let changes = Mutex<[StoreChange]>([])
    func add(_ change: StoreChange) { changes.withLock { $0.append(change) } }
    func clear() { changes.withLock { $0.removeAll() } }
    var all: [StoreChange] { changes.withLock { $0 } }
}
