import Foundation
import GRDB
import Logging
import Model
import SQLiteStorage
import StorageSupport
import TestSupport
import XCTest

final class CallRecordWriterTests: XCTestCase {
    private let logger = Logger(label: "sipwake.storage.tests")

    /// Version `n` of record 1: `n` events in its timeline.
    private static func version(_ n: Int) -> CallRecord {
        var record = CallRecordFixture.record(1, outcome: nil)
        record.events = (0..<n).map {
            CallEventRecord(at: CallRecordFixture.start.addingTimeInterval(Double($0)), event: "event \($0)")
        }
        return record
    }

    func testNothingIsWrittenBeforeStartAndManySavesOfOneCallCoalesce() throws {
        let store = CallRecordStore(database: try TestDatabase.open(self))
        let writer = CallRecordWriter(store: store, logger: logger)
        for n in 1...200 {
            writer.save(Self.version(n))
        }
        writer.save(CallRecordFixture.record(2))
        Thread.sleep(forTimeInterval: 0.2)
        XCTAssertEqual(try store.count(), 0, "init starts no thread")

        writer.start()
        writer.flush()
        XCTAssertEqual(try store.find("rec-1"), Self.version(200), "the last version is stored")
        XCTAssertEqual(try store.find("rec-2"), CallRecordFixture.record(2))
        XCTAssertEqual(writer.writtenRecords, 2, "201 saves, 2 rows written")
        XCTAssertEqual(writer.committedBatches, 1)
        XCTAssertEqual(writer.failures, 0)
        writer.shutdown()
    }

    /// A record the database refuses (here a trigger refuses rec-2, as a
    /// constraint would) does not take the rest of its batch with it.
    func testARowTheDatabaseRefusesLosesOnlyItself() throws {
        let database = try TestDatabase.open(self)
        try database.pool.write { db in
            try db.execute(sql: """
                CREATE TRIGGER refuse_rec_2 BEFORE INSERT ON call_records WHEN NEW.id = 'rec-2'
                BEGIN SELECT RAISE(ABORT, 'refused'); END
                """)
        }
        let store = CallRecordStore(database: database)
        let writer = CallRecordWriter(store: store, logger: logger)
        for n in 1...3 { writer.save(CallRecordFixture.record(n)) }
        writer.start()
        writer.flush()
        XCTAssertEqual(try store.find("rec-1"), CallRecordFixture.record(1))
        XCTAssertNil(try store.find("rec-2"))
        XCTAssertEqual(try store.find("rec-3"), CallRecordFixture.record(3))
        XCTAssertEqual(writer.writtenRecords, 2)
        XCTAssertEqual(writer.failures, 1)
        writer.shutdown()
    }

    func testFlushWaitsForEverySaveMadeBeforeIt() throws {
        let store = CallRecordStore(database: try TestDatabase.open(self))
        let writer = CallRecordWriter(store: store, logger: logger)
        writer.start()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in stride(from: thread, to: 400, by: 8) {
                for step in 0..<3 {
                    var record = CallRecordFixture.record(index, outcome: step == 2 ? .answered : nil)
                    record.finalStatus = step == 2 ? 200 : nil
                    writer.save(record)
                }
            }
        }
        writer.flush()
        XCTAssertEqual(try store.count(), 400)
        XCTAssertEqual(try store.count(outcome: .answered), 400, "each call's last version")
        XCTAssertTrue((400...1200).contains(writer.writtenRecords), "every call written, versions coalesced: \(writer.writtenRecords)")
        XCTAssertEqual(writer.failures, 0)

        writer.save(Self.version(3))
        writer.flush()
        XCTAssertEqual(try store.find("rec-1")?.events.count, 3)
        writer.shutdown()
    }

    /// Records can wait a moment when the machine is busy; the SIP loop cannot.
    func testTheWriterThreadRunsBelowTheSIPLoop() throws {
        let store = CallRecordStore(database: try TestDatabase.open(self))
        let writer = CallRecordWriter(store: store, logger: logger)
        writer.start()
        writer.save(CallRecordFixture.record(1))
        writer.flush()
        let values = threadNiceValues(named: "call-records")
        XCTAssertFalse(values.isEmpty)
        XCTAssertEqual(Set(values), [Int(ThreadPriority.background)])
        writer.shutdown()
    }

    func testFlushOnAWriterNeverStartedStartsIt() throws {
        let store = CallRecordStore(database: try TestDatabase.open(self))
        let writer = CallRecordWriter(store: store, logger: logger)
        writer.save(CallRecordFixture.record(1))
        writer.flush()
        XCTAssertEqual(try store.count(), 1)
        writer.shutdown()
    }

    func testShuttingDownAWriterThatWasNeverStartedStillWritesWhatIsPending() throws {
        let store = CallRecordStore(database: try TestDatabase.open(self))
        let capture = LogRecorder()
        let writer = CallRecordWriter(store: store, logger: capture.logger)
        writer.save(CallRecordFixture.record(1))
        writer.save(CallRecordFixture.record(2))
        writer.shutdown()
        XCTAssertEqual(try store.count(), 2)

        writer.save(CallRecordFixture.record(3))
        writer.flush()
        writer.shutdown()
        XCTAssertEqual(try store.count(), 2, "nothing is written after shutdown")
        XCTAssertEqual(writer.failures, 1)
        XCTAssertTrue(capture.recorded.contains("warning: Call record dropped: the writer is shut down"),
                      "\(capture.recorded)")
    }

    func testDroppingTheWriterWritesWhatIsPending() throws {
        let store = CallRecordStore(database: try TestDatabase.open(self))
        do {
            let writer = CallRecordWriter(store: store, logger: logger)
            writer.start()
            for index in 0..<20 { writer.save(CallRecordFixture.record(index)) }
        }
        XCTAssertEqual(try store.count(), 20)
    }

    func testAFailedWriteIsLoggedAndCountedAndTheWriterGoesOn() throws {
        let database = try TestDatabase.open(self)
        let store = CallRecordStore(database: database)
        let capture = LogRecorder()
        let writer = CallRecordWriter(store: store, logger: capture.logger)
        writer.start()
        writer.save(CallRecordFixture.record(1))
        writer.flush()
        try database.close()

        writer.save(CallRecordFixture.record(2))
        writer.save(CallRecordFixture.record(3))
        writer.flush()
        XCTAssertEqual(writer.failures, 2)
        XCTAssertEqual(writer.writtenRecords, 1)
        // One warning per failed batch: the two saves share one unless the
        // writer thread took the first before the second was queued.
        let warnings = capture.recorded.filter { !$0.hasPrefix("debug") }
        XCTAssertEqual(Set(warnings), ["warning: Call record write failed"])
        XCTAssertTrue((1...2).contains(warnings.count), "\(warnings)")

        writer.save(CallRecordFixture.record(4))
        writer.shutdown()
        XCTAssertEqual(writer.failures, 3, "the thread still runs and reports every failure")
    }

    func testARecordThatCannotBeEncodedFailsAloneAndTheOthersAreWritten() throws {
        let store = CallRecordStore(database: try TestDatabase.open(self))
        let capture = LogRecorder()
        let writer = CallRecordWriter(store: store, logger: capture.logger)
        var broken = CallRecordFixture.record(1)
        broken.startedAt = Date(timeIntervalSince1970: .nan)
        var unnamed = CallRecordFixture.record(2)
        unnamed.id = ""
        writer.save(broken)
        writer.save(unnamed)
        writer.save(CallRecordFixture.record(3))
        writer.flush()
        XCTAssertEqual(try store.list().map(\.id), ["rec-3"])
        XCTAssertEqual(writer.failures, 2)
        XCTAssertEqual(capture.recorded.filter { !$0.hasPrefix("debug") },
                       Array(repeating: "warning: Call record cannot be stored", count: 2))
        writer.shutdown()
    }

    func testTheWriterThreadIsNamed() throws {
        let store = CallRecordStore(database: try TestDatabase.open(self))
        let writer = CallRecordWriter(store: store, logger: logger)
        writer.start()
        writer.save(CallRecordFixture.record(1))
        writer.flush()
        let names = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").compactMap {
            try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8)
        }
        XCTAssertTrue(names.contains("call-records\n"), "\(names)")
        writer.shutdown()
    }
}
