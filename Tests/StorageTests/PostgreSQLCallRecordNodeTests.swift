import Foundation
import Model
@testable import PostgreSQLStorage
import TestSupport
import Testing

/// With several nodes on one database, a call's record belongs to the node
/// that saved it: the clean-up of open records closes a stopped node's and
/// leaves a running node's alone.
@Suite struct PostgreSQLCallRecordNodeTests {
    @Test func openRecordsOfAStoppedNodeAreClosedAndARunningNodesAreKept() async throws {
        let (nodeA, nodeB) = try PostgreSQLBindingEventFeedTests().open()
        defer { nodeB.close() }
        let archive = PostgreSQLCallRecordStore(database: nodeB)
        try PostgreSQLCallRecordStore(database: nodeA).save([CallRecordFixture.record(1, outcome: nil)])
        try archive.save([CallRecordFixture.record(2, outcome: nil)])
        #expect(try archive.closeOpenRecords().closed == 0, "both nodes are running")

        nodeA.close()
        // PostgreSQL ends node A's sessions a moment after its sockets close.
        var closed = 0
        for _ in 0..<250 where closed == 0 {
            closed = try archive.closeOpenRecords().closed
            if closed == 0 { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(closed == 1)
        #expect(try archive.find("rec-1")?.outcome == .interrupted, "node A's call is closed")
        #expect(try archive.find("rec-2")?.outcome == nil, "node B's call is left open")
        let node = try nodeB.read { db in
            try db.value("SELECT node FROM call_records WHERE id = 'rec-1'", as: String.self)
        }
        #expect(node == nodeA.node, "the record still names the node that held the call")
    }
}
