import Foundation
import GRDB
@testable import SIPWake
import SQLiteStorage
import Testing

/// A call's tuple read never waits behind a tuple write that waits for
/// SQLite's write lock (held here by another connection, as the CLI or a
/// group commit would), and `drain` waits for both.
@Suite struct DeviceTupleQueueTests {
    @Test func aReadGoesOnWhileAWriteWaitsForTheLock() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tuple-queue-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("db.sqlite").path
        let database = try SipwakeDatabase(path: path)
        defer { try? database.close() }
        let queue = DeviceTupleQueue(store: TupleStore(database: database))

        // Another connection takes the write lock and keeps it until released.
        let holder = try DatabaseQueue(path: path)
        let lockHeld = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let holderDone = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? holder.inDatabase { db in
                try db.execute(sql: "BEGIN IMMEDIATE")
                lockHeld.signal()
                release.wait()
                try db.execute(sql: "ROLLBACK")
            }
            holderDone.signal()
        }
        #expect(lockHeld.wait(timeout: .now() + 2) == .success)

        let writeStarted = DispatchSemaphore(value: 0)
        let writeDone = DispatchSemaphore(value: 0)
        queue.write { store in
            writeStarted.signal()
            _ = try? store.delete(id: 1)
            writeDone.signal()
        }
        #expect(writeStarted.wait(timeout: .now() + 2) == .success)
        let readDone = DispatchSemaphore(value: 0)
        queue.read { store in
            _ = try? store.list(username: nil, limit: 10, offset: 0)
            readDone.signal()
        }
        #expect(readDone.wait(timeout: .now() + 1.5) == .success, "the read waited behind the blocked write")
        #expect(writeDone.wait(timeout: .now()) == .timedOut, "the write still waits for the lock")

        release.signal()
        #expect(holderDone.wait(timeout: .now() + 2) == .success)
        queue.drain()
        #expect(writeDone.wait(timeout: .now()) == .success, "drain returned before the write ran")
    }
}
