import Foundation
import Logging
@testable import StorageSupport
import Synchronization
import Testing

/// The one queue-and-thread both writers run on.
@Suite struct BatchingWriterTests {
    static let logger = Logger(label: "batching-writer-test")

    /// Integers, taken at most `maxBatch` at a time.
    struct Numbers: PendingWrites {
        var maxBatch: Int
        var items: [Int] = []
        var isEmpty: Bool { items.isEmpty }
        mutating func append(_ submission: Int) { items.append(submission) }
        mutating func takeBatch() -> (batch: [Int], submissions: Int) {
            let batch = Array(items.prefix(maxBatch))
            items.removeFirst(batch.count)
            return (batch, batch.count)
        }
    }

    /// Batches as the thread wrote them; the first write can be held.
    final class Recorder: Sendable {
        let batches = Mutex<[[Int]]>([])
        /// The threads that wrote (pthread ids): the writer's own only.
        let writerThreads = Mutex<Set<UInt>>([])
        let gate = DispatchSemaphore(value: 0)
        let holdFirst: Bool
        let entered = DispatchSemaphore(value: 0)

        init(holdFirst: Bool) {
            self.holdFirst = holdFirst
        }

        func write(_ batch: [Int]) {
            let first = batches.withLock { $0.isEmpty }
            writerThreads.withLock { _ = $0.insert(UInt(pthread_self())) }
            if first && holdFirst {
                entered.signal()
                gate.wait()
            }
            batches.withLock { $0.append(batch) }
        }
    }

    @Test func whatQueuesDuringAWriteGoesInTheNextBatchUpToItsLimit() {
        let recorder = Recorder(holdFirst: true)
        let writer = BatchingWriter(threadName: "test-writer", queue: Numbers(maxBatch: 4), logger: Self.logger,
                                    started: "started", stopped: "stopped") { recorder.write($0) }
        writer.startIfNeeded()
        #expect(writer.enqueue(0))
        recorder.entered.wait()
        for n in 1...6 { #expect(writer.enqueue(n)) }
        recorder.gate.signal()
        writer.flush()
        #expect(recorder.batches.withLock { $0 } == [[0], [1, 2, 3, 4], [5, 6]])
        // Every batch was written by one thread, not the caller's.
        let threads = recorder.writerThreads.withLock { $0 }
        #expect(threads.count == 1)
        #expect(!threads.contains(UInt(pthread_self())))
        writer.shutdown()
    }

    @Test func flushWaitsForEverySubmissionBeforeIt() {
        let recorder = Recorder(holdFirst: false)
        let writer = BatchingWriter(threadName: "test-writer", queue: Numbers(maxBatch: 3), logger: Self.logger,
                                    started: "started", stopped: "stopped") { recorder.write($0) }
        writer.startIfNeeded()
        for n in 0..<10 { _ = writer.enqueue(n) }
        writer.flush()
        #expect(recorder.batches.withLock { $0 }.flatMap { $0 } == Array(0..<10))
        writer.shutdown()
    }

    @Test func shutdownDrainsWhatWasQueuedEvenBeforeTheStart() {
        let recorder = Recorder(holdFirst: false)
        let writer = BatchingWriter(threadName: "test-writer", queue: Numbers(maxBatch: 2), logger: Self.logger,
                                    started: "started", stopped: "stopped") { recorder.write($0) }
        for n in 0..<5 { #expect(writer.enqueue(n)) }
        #expect(recorder.batches.withLock { $0 }.isEmpty, "nothing is written before the start")
        writer.startIfNeeded()
        writer.shutdown()
        #expect(recorder.batches.withLock { $0 } == [[0, 1], [2, 3], [4]])
        #expect(!writer.enqueue(5), "refused after the shutdown")
        writer.flush()
        writer.shutdown()
        #expect(recorder.batches.withLock { $0 }.count == 3)
    }
}
