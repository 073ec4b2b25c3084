import Foundation
import Logging
import Model
@testable import PostgreSQLStorage
import TestSupport
import Synchronization
import Testing

/// The binding event feed on PostgreSQL: every committed binding change,
/// tagged with the node that committed it, numbered in commit order
/// (announced by `PostgreSQLStoreNotifications`).
@Suite struct PostgreSQLBindingEventFeedTests {
    func open() throws -> (PostgreSQLDatabase, PostgreSQLDatabase) {
        let cluster = try PostgreSQLTestCluster.shared()
        let name = try cluster.makeDatabase()
        let location = PostgreSQLLocation(host: cluster.host, port: cluster.port, username: PostgreSQLTestCluster.username,
                                          password: PostgreSQLTestCluster.password, database: name)
        return (try PostgreSQLDatabase(location: location, logger: Logger(label: "test")),
                try PostgreSQLDatabase(location: location, logger: Logger(label: "test")))
    }

    @Test func eachCommittedChangeIsAnEventOfItsNodeInOrder() throws {
        let (nodeA, nodeB) = try open()
        defer { nodeA.close(); nodeB.close() }
        #expect(nodeA.node != nodeB.node)
        let feed = PostgreSQLBindingEventFeed(database: nodeB)
        let head = try feed.head()
        let bob = BindingFixture.contact()
        var moved = bob
        moved.contact = "sip:bob@203.0.113.9:5062"
        moved.updatedAt = bob.updatedAt.addingTimeInterval(30)
        let store = PostgreSQLBindingStore(database: nodeA)
        try store.apply([.added(bob)])
        try store.apply([.refreshed(old: bob, new: moved), .removed(moved, reason: .unregistered)])

        let read = try feed.events(after: head, limit: 10)
        #expect(read.events.map(\.kind) == [.saved, .removed, .saved, .removed])
        #expect(read.events.map(\.binding.contact) == [bob.contact, bob.contact, moved.contact, moved.contact])
        #expect(read.events.allSatisfy { $0.node == nodeA.node })
        #expect(read.events.map(\.seq) == Array((head + 1)...(head + 4)))
        #expect(read.through == head + 4 && !read.missed)
        #expect(try feed.head() == head + 4)
        #expect(try feed.events(after: head + 4, limit: 10).events.isEmpty)
    }

    @Test func aReaderBehindThePrunedEventsIsToldItMissedSome() throws {
        let (nodeA, nodeB) = try open()
        defer { nodeA.close(); nodeB.close() }
        let feed = PostgreSQLBindingEventFeed(database: nodeB)
        let head = try feed.head()
        let store = PostgreSQLBindingStore(database: nodeA)
        for index in 0..<3 { try store.apply([.added(BindingFixture.contact(contact: "sip:bob@203.0.113.5:\(5062 + index)"))]) }
        // The feed keeps its latest events only: the oldest are gone.
        _ = try nodeA.write { db in try db.execute("DELETE FROM binding_events WHERE seq <= \(head + 2)") }
        let read = try feed.events(after: head, limit: 10)
        #expect(read.missed, "events after the asked point were pruned")
        #expect(read.events.map(\.seq) == [head + 3])
        #expect(try feed.events(after: head + 2, limit: 10).missed == false, "a reader that is not behind missed nothing")
    }

    @Test func aFailedCommitAnnouncesNothing() throws {
        let (nodeA, nodeB) = try open()
        defer { nodeA.close(); nodeB.close() }
        let feed = PostgreSQLBindingEventFeed(database: nodeB)
        let head = try feed.head()
        var bad = BindingFixture.contact()
        bad.aor = String(repeating: "x", count: 10) + "\u{0}"   // PostgreSQL refuses NUL in text
        #expect(throws: (any Error).self) { try PostgreSQLBindingStore(database: nodeA).apply([.added(bad)]) }
        #expect(try feed.head() == head)
    }
}

final class WakeCount: Sendable {
    private let value = Mutex(0)
    func add() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}
