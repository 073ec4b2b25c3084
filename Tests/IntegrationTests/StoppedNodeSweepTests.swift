import Config
import Foundation
import Logging
import Metrics
import Model
import PostgreSQLStorage
import SIPWake
import ServiceLifecycle
import StorageSupport
import TestSupport
import Testing

/// A node that dies leaves its calls' records open; the nodes still running
/// close them `interrupted` at their next sweep, while a running node's
/// calls are left alone. The SIP service runs in this process on a shared
/// PostgreSQL database, its sweep shortened.
@Suite struct StoppedNodeSweepTests {
    private func open(_ cluster: PostgreSQLTestCluster, _ name: String) throws -> PostgreSQLDatabase {
        try PostgreSQLDatabase(
            location: PostgreSQLLocation(host: cluster.host, port: cluster.port, username: PostgreSQLTestCluster.username,
                                         password: PostgreSQLTestCluster.password, database: name),
            logger: Logger(label: "sweep-test"))
    }

    private func openCall(_ index: Int) -> CallRecord {
        CallRecord(id: "rec-sweep-\(index)", pairingID: "pair-sweep-\(index)", callID: "call-sweep-\(index)@pbx",
                   callee: "alice", caller: "sip:bob@example.com", startedAt: Date())
    }

    @Test func aRunningNodeClosesTheOpenCallsOfANodeThatStopped() async throws {
        let cluster = try PostgreSQLTestCluster.shared()
        let name = try cluster.makeDatabase()
        let stopping = try open(cluster, name)
        let running = try open(cluster, name)
        defer { running.close() }
        let other = try open(cluster, name)
        defer { other.close() }
        try PostgreSQLCallRecordStore(database: stopping).save([openCall(1)])
        try PostgreSQLCallRecordStore(database: other).save([openCall(2)])

        let port = try TestPorts.free()
        let config = try SipwakeConfig.parse("""
            [sip]
            listen = ["udp:127.0.0.1:\(port)"]
            domains = ["localhost"]
            [database]
            url = "\(cluster.url(database: name))"
            [http]
            listen = ""
            [push]
            enabled = false
            """, file: "sweep.toml", environment: [:])
        let logger = Logger(label: "sweep-test") { _ in SwiftLogNoOpLogHandler() }
        let (ready, readySignal) = AsyncStream.makeStream(of: Void.self)
        let service = SIPService(
            config: config, stores: running.stores,
            bindingJournal: BindingWriter(store: PostgreSQLBindingStore(database: running), logger: logger),
            callRecords: nil, logger: logger, metrics: NOOPMetricsHandler.instance,
            stoppedNodeSweepInterval: .milliseconds(100), ready: { readySignal.yield() })
        let group = ServiceGroup(configuration: .init(services: [service], logger: logger))
        let task = Task { try await group.run() }
        var readiness = ready.makeAsyncIterator()
        _ = await readiness.next()

        let archive = PostgreSQLCallRecordStore(database: running)
        try await Task.sleep(for: .milliseconds(300))
        #expect(try archive.find("rec-sweep-1")?.outcome == nil, "its node is still running")

        stopping.close()
        var outcome: CallOutcome?
        for _ in 0..<250 where outcome == nil {
            outcome = try archive.find("rec-sweep-1")?.outcome
            if outcome == nil { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(outcome == .interrupted, "the sweep closed the stopped node's call")
        #expect(try archive.find("rec-sweep-2")?.outcome == nil, "a running node's call is left open")

        await group.triggerGracefulShutdown()
        try await task.value
    }
}
