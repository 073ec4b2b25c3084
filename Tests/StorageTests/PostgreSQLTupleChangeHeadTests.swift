import Foundation
import Logging
import PostgreSQLStorage
import TestSupport
import Testing

/// The PostgreSQL tuple feed's head as the SIP loop asks for it: at once,
/// from a value its thread keeps fresh; nil once it could not be read for a
/// while, so the call path reads the store instead.
@Suite struct PostgreSQLTupleChangeHeadTests {
    @Test func theHeadFollowsWritesAndAnswersWithoutWaiting() throws {
        try OpenedStores.with(.postgresql) { opened in
            let head = PostgreSQLTupleChangeHead(
                database: try #require(opened.postgresql), interval: .milliseconds(20), logger: Logger(label: "test"))
            defer { head.stop() }
            #expect(head.latest() == 0, "read once before the first INVITE")
            _ = try opened.stores.users.add(username: "alice", realm: "r", ha1MD5: String(repeating: "a", count: 32),
                                            ha1SHA256: String(repeating: "b", count: 64))
            _ = try opened.stores.tuples.report(
                username: "alice", selector: "s1", appIDCalls: "app", tokenCalls: "t1", appIDOther: nil,
                tokenOther: nil, platform: .ios, provider: nil, now: Date())
            let deadline = Date().addingTimeInterval(2)
            while head.latest() != 1 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            #expect(head.latest() == 1, "another writer's change is seen within the interval")

            let clock = ContinuousClock()
            let elapsed = clock.measure {
                for _ in 0..<10_000 { _ = head.latest() }
            }
            #expect(elapsed < .milliseconds(200), "no database round trip per call: \(elapsed)")
        }
    }

    @Test func anUnreadableHeadAnswersNil() throws {
        try OpenedStores.with(.postgresql) { opened in
            let database = try #require(opened.postgresql)
            let head = PostgreSQLTupleChangeHead(database: database, interval: .milliseconds(20),
                                                 staleAfter: .milliseconds(200), logger: Logger(label: "test"))
            defer { head.stop() }
            #expect(head.latest() == 0)
            database.close()
            Thread.sleep(forTimeInterval: 0.5)
            #expect(head.latest() == nil, "the caller reads the store instead of trusting an old value")
        }
    }
}
