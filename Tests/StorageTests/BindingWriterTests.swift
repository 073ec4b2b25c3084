import Foundation
import GRDB
import Logging
import Model
import PostgreSQLStorage
import Ports
import Registrar
import SQLiteStorage
import StorageSupport
import TestSupport
import XCTest

/// Group commit, on SQLite and on PostgreSQL where a test says `eachAdapter`.
final class BindingWriterTests: XCTestCase {
    private let logger = Logger(label: "sipwake.storage.tests")

    private func eachAdapter(_ body: (OpenedStores) throws -> Void) throws {
        for adapter in StoreAdapter.allCases {
            try OpenedStores.with(adapter, body)
        }
    }

    private static func binding(_ index: Int, q: Int? = nil) -> Binding {
        BindingFixture.instance(aor: "user\(index % 50)", uuid: "device-\(index)", q: q)
    }

    /// Holds the writer thread inside the first submission's completion until
    /// `release` is signalled, so everything submitted meanwhile is queued.
    /// The gate is committed alone: this returns once its completion runs.
    private func block(_ writer: BindingWriter, log: CompletionLog) -> DispatchSemaphore {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        writer.submit([.added(BindingFixture.contact(aor: "gate"))]) { result in
            log.append("gate", result)
            entered.signal()
            release.wait()
        }
        entered.wait()
        return release
    }

    func testNothingIsWrittenBeforeStartAndQueuedWritesCommitAfterIt() throws {
        let database = try TestDatabase.open(self)
        let store = BindingStore(database: database)
        let writer = BindingWriter(store: store, logger: logger)
        let log = CompletionLog()
        let done = expectation(description: "committed after start")
        writer.submit([.added(Self.binding(1))]) { result in
            log.append("1", result)
            done.fulfill()
        }
        Thread.sleep(forTimeInterval: 0.2)
        XCTAssertEqual(try store.count(), 0, "init starts no thread")
        XCTAssertTrue(log.snapshot.isEmpty)
        writer.start()
        wait(for: [done], timeout: 30)
        XCTAssertEqual(try store.count(), 1)
        writer.shutdown()
    }

    func testShuttingDownAWriterThatWasNeverStartedStillCommitsTheQueue() throws {
        let database = try TestDatabase.open(self)
        let store = BindingStore(database: database)
        let writer = BindingWriter(store: store, logger: logger)
        let log = CompletionLog()
        writer.submit([.added(Self.binding(2))]) { result in log.append("2", result) }
        writer.shutdown()
        XCTAssertEqual(log.snapshot.map(\.succeeded), [true])
        XCTAssertEqual(try store.count(), 1)
    }

    func testThousandConcurrentSubmissionsAllCommitInFewerBatches() throws {
        try eachAdapter { opened in
        let store = opened.stores.bindings
        let writer = BindingWriter(store: opened.bindingBatch, logger: logger)
        writer.start()
        let log = CompletionLog()
        let done = expectation(description: "all completions")
        done.expectedFulfillmentCount = 1000

        let threads = 8
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in stride(from: thread, to: 1000, by: threads) {
                writer.submit([.added(Self.binding(index))]) { result in
                    log.append("\(index)", result)
                    done.fulfill()
                }
            }
        }
        wait(for: [done], timeout: 120)

        let entries = log.snapshot
        XCTAssertEqual(entries.count, 1000)
        XCTAssertEqual(entries.filter(\.succeeded).count, 1000)
        XCTAssertEqual(Set(entries.map(\.label)).count, 1000)
        XCTAssertEqual(Set(entries.map(\.threadName)), ["bindings-writer"], "completions run on the writer thread")
        XCTAssertEqual(writer.committedSubmissions, 1000)
        XCTAssertEqual(writer.failedSubmissions, 0)
        XCTAssertGreaterThanOrEqual(writer.committedBatches, 1)
        XCTAssertLessThan(writer.committedBatches, 1000, "group commit: some transactions carried several submissions")
        XCTAssertEqual(try store.count(), 1000)
        writer.shutdown()
        }
    }

    /// Blocks the writer on a first submission (the gate), queues 1,000
    /// one-binding submissions behind it, lets it go and shuts it down.
    private func submitThousandBehindAGate(maxBatch: Int, _ opened: OpenedStores)
        -> (any BindingRepository, BindingWriter, CompletionLog)
    {
        let store = opened.stores.bindings
        let writer = BindingWriter(store: opened.bindingBatch, logger: logger, maxBatch: maxBatch)
        writer.start()
        let log = CompletionLog()
        let release = block(writer, log: log)
        for index in 0..<1000 {
            writer.submit([.added(Self.binding(index))]) { log.append("\(index)", $0) }
        }
        release.signal()
        writer.shutdown()
        return (store, writer, log)
    }

    func testEverythingQueuedDuringACommitGoesInOneTransaction() throws {
        try eachAdapter { opened in
        let (store, writer, log) = submitThousandBehindAGate(maxBatch: 1024, opened)

        XCTAssertEqual(log.snapshot.count, 1001)
        XCTAssertTrue(log.snapshot.allSatisfy(\.succeeded))
        XCTAssertEqual(log.snapshot.map(\.label), ["gate"] + (0..<1000).map { "\($0)" }, "completions in submission order")
        XCTAssertEqual(writer.committedBatches, 2, "the gate, then the 1000 queued behind it")
        XCTAssertEqual(writer.committedSubmissions, 1001)
        XCTAssertEqual(try store.count(), 1001)
        }
    }

    func testMaxBatchCapsATransaction() throws {
        try eachAdapter { opened in
        let (store, writer, _) = submitThousandBehindAGate(maxBatch: 100, opened)

        XCTAssertEqual(writer.committedBatches, 11, "the gate, then 10 batches of 100")
        XCTAssertEqual(writer.committedSubmissions, 1001)
        XCTAssertEqual(try store.count(), 1001)
        }
    }

    func testABadSubmissionFailsAloneAndWritesNothingOfItself() throws {
        try eachAdapter { opened in
        let store = opened.stores.bindings
        let capture = LogRecorder()
        let writer = BindingWriter(store: opened.bindingBatch, logger: capture.logger)
        writer.start()
        let log = CompletionLog()
        let release = block(writer, log: log)
        let good1 = Self.binding(1)
        let good2 = Self.binding(2)
        let partOfBad = Self.binding(3)
        writer.submit([.added(good1)]) { log.append("good1", $0) }
        writer.submit([.added(partOfBad), .added(Self.binding(4, q: 5000))]) { log.append("bad", $0) }
        writer.submit([.added(good2)]) { log.append("good2", $0) }
        release.signal()
        writer.shutdown()

        let entries = log.snapshot
        XCTAssertEqual(entries.map(\.label), ["gate", "good1", "bad", "good2"])
        XCTAssertEqual(entries.map(\.succeeded), [true, true, false, true])
        switch opened.adapter {
        case .sqlite:
            XCTAssertEqual((entries[2].error as? DatabaseError)?.resultCode, .SQLITE_CONSTRAINT)
        case .postgresql:
            // 23514: check_violation (q outside 0...1000).
            XCTAssertEqual((entries[2].error as? PostgreSQLStorageError)?.kind, .refused(sqlState: "23514"))
        }
        XCTAssertEqual(writer.committedSubmissions, 3)
        XCTAssertEqual(writer.failedSubmissions, 1)
        XCTAssertEqual(writer.committedBatches, 3, "gate, then good1 and good2 each on its own after the batch failed")
        XCTAssertEqual(
            Set(try store.loadAll().map(\.instanceID)),
            Set([BindingFixture.contact(aor: "gate").instanceID, good1.instanceID, good2.instanceID]))
        XCTAssertEqual(
            capture.recorded.filter { !$0.hasPrefix("debug") },
            [
                "warning: Binding batch failed, committing its submissions one by one",
                "warning: Binding write failed and was rolled back",
            ])
        }
    }

    func testADatabaseFailureFailsTheWholeBatchWithoutRetries() throws {
        let database = try TestDatabase.open(self)
        let store = BindingStore(database: database)
        let capture = LogRecorder()
        let writer = BindingWriter(store: store, logger: capture.logger)
        writer.start()
        let log = CompletionLog()
        let release = block(writer, log: log)
        for index in 0..<3 {
            writer.submit([.added(Self.binding(index))]) { log.append("\(index)", $0) }
        }
        try database.close()
        release.signal()
        writer.shutdown()

        let entries = log.snapshot
        XCTAssertEqual(entries.map(\.label), ["gate", "0", "1", "2"])
        XCTAssertEqual(entries.map(\.succeeded), [true, false, false, false])
        XCTAssertTrue(entries.dropFirst().allSatisfy { $0.error is DatabaseError })
        XCTAssertEqual(writer.committedBatches, 1)
        XCTAssertEqual(writer.failedSubmissions, 3)
        XCTAssertEqual(
            capture.recorded.filter { !$0.hasPrefix("debug") },
            Array(repeating: "warning: Binding write failed and was rolled back", count: 3),
            "no one-by-one retry against a failed database")
    }

    func testShutdownDrainsTheQueueThenRefusesNewWork() throws {
        try eachAdapter { opened in
        let store = opened.stores.bindings
        let writer = BindingWriter(store: opened.bindingBatch, logger: logger)
        writer.start()
        let log = CompletionLog()
        let release = DispatchSemaphore(value: 0)
        // The writer thread is held inside this completion, and stops
        // accepting from there, while 50 submissions wait in the queue.
        writer.submit([.added(BindingFixture.contact(aor: "gate"))]) { [writer] result in
            log.append("gate", result)
            release.wait()
            writer.shutdown()
        }
        for index in 0..<50 {
            writer.submit([.added(Self.binding(index))]) { log.append("\(index)", $0) }
        }
        release.signal()
        writer.shutdown()

        XCTAssertEqual(log.snapshot.count, 51, "every queued submission completed before shutdown returned")
        XCTAssertTrue(log.snapshot.allSatisfy(\.succeeded))
        XCTAssertEqual(try store.count(), 51)

        let refused = CompletionLog()
        writer.submit([.added(Self.binding(99))]) { refused.append("late", $0) }
        XCTAssertEqual(refused.snapshot.count, 1, "refused at once, on the caller's thread")
        XCTAssertEqual(refused.snapshot.first?.error as? StorageError, .writerStopped)
        writer.shutdown()
        XCTAssertEqual(try store.count(), 51)
        XCTAssertEqual(writer.committedSubmissions, 51)
        }
    }

    func testDroppingTheWriterDrainsItsQueue() throws {
        let store = BindingStore(database: try TestDatabase.open(self))
        let log = CompletionLog()
        do {
            let writer = BindingWriter(store: store, logger: logger)
            writer.start()
            for index in 0..<20 {
                writer.submit([.added(Self.binding(index))]) { log.append("\(index)", $0) }
            }
        }
        XCTAssertEqual(log.snapshot.count, 20)
        XCTAssertEqual(try store.count(), 20)
    }
}
