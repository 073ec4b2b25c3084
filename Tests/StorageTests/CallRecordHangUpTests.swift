import Foundation
import Logging
import Model
import SQLiteStorage
import StorageSupport
import XCTest

/// The BYE of an answered call's dialog gives its record the hang-up: the
/// rule (`CallRecord.hangingUp`), the stored row (`CallRecordStore.hangUp`)
/// and the writer, which puts it on a waiting version or on the row.
final class CallRecordHangUpTests: XCTestCase {
    private let logger = Logger(label: "sipwake.storage.tests")
    /// The answering device's tag, and the caller's.
    static let deviceTag = "dev-7f3a"
    static let callerTag = "pbx-19c2"

    /// Record `index`, answered at +4.5 s by the device with `deviceTag`.
    static func answered(_ index: Int = 1, startedAt: Date = CallRecordFixture.start) -> CallRecord {
        var record = CallRecordFixture.record(index, startedAt: startedAt)
        record.answerTag = deviceTag
        return record
    }

    static func bye(_ record: CallRecord, from: String?, to: String?, after seconds: Double = 64) -> CallHangUp {
        CallHangUp(callID: record.callID, fromTag: from, toTag: to, at: record.startedAt.addingTimeInterval(seconds))
    }

    func testTheDeviceOrTheCallerHangsUpTheAnsweredDialogOnce() throws {
        let record = Self.answered()
        let byDevice = try XCTUnwrap(record.hangingUp(Self.bye(record, from: Self.deviceTag, to: Self.callerTag)))
        XCTAssertEqual(byDevice.hungUpAt, record.startedAt.addingTimeInterval(64))
        XCTAssertEqual(byDevice.hungUpBy, .callee)
        XCTAssertEqual(byDevice.events.last, CallEventRecord(at: record.startedAt.addingTimeInterval(64),
                                                             event: "call hung up", detail: "by=callee"))
        XCTAssertEqual(byDevice.lastKnownAt, record.startedAt.addingTimeInterval(64))
        XCTAssertNil(byDevice.hangingUp(Self.bye(record, from: Self.callerTag, to: Self.deviceTag, after: 70)),
                     "the first BYE ended it")

        let byCaller = try XCTUnwrap(record.hangingUp(Self.bye(record, from: Self.callerTag, to: Self.deviceTag)))
        XCTAssertEqual(byCaller.hungUpBy, .caller)
    }

    func testABYEOfAnotherDialogOrCallEndsNothing() {
        let record = Self.answered()
        // A second device answered too; the caller hung up that extra dialog.
        XCTAssertNil(record.hangingUp(Self.bye(record, from: Self.callerTag, to: "second-device")))
        var other = Self.bye(record, from: Self.deviceTag, to: Self.callerTag)
        other.callID = "another-call"
        XCTAssertNil(record.hangingUp(other))
        var unanswered = record
        unanswered.outcome = .cancelled
        XCTAssertNil(unanswered.hangingUp(Self.bye(record, from: Self.deviceTag, to: Self.callerTag)))
        var untagged = record
        untagged.answerTag = nil
        XCTAssertNil(untagged.hangingUp(Self.bye(record, from: Self.deviceTag, to: Self.callerTag)),
                     "a record of before the answer's tag was kept")
    }

    func testTheHangUpGoesInTheTimelineInTimeOrder() throws {
        var record = Self.answered()
        record.events.append(CallEventRecord(at: record.startedAt.addingTimeInterval(80), event: "push answered"))
        let ended = try XCTUnwrap(record.hangingUp(Self.bye(record, from: Self.deviceTag, to: Self.callerTag)))
        XCTAssertEqual(ended.events.suffix(2).map(\.event), ["call hung up", "push answered"])
    }

    func testTheStoreGivesTheNewestAnsweredRecordOfTheCallItsHangUp() throws {
        let store = CallRecordStore(database: try TestDatabase.open(self))
        let older = Self.answered(1)
        var newer = Self.answered(2, startedAt: CallRecordFixture.start.addingTimeInterval(1))
        newer.callID = older.callID
        var unanswered = CallRecordFixture.record(3, startedAt: CallRecordFixture.start.addingTimeInterval(2),
                                                  outcome: .noAnswer)
        unanswered.callID = older.callID
        try store.save([older, newer, unanswered, CallRecordFixture.record(4)])
        let bye = Self.bye(older, from: Self.callerTag, to: Self.deviceTag)
        XCTAssertEqual(try store.hangUp([bye]), 1)
        XCTAssertEqual(try store.find("rec-2"), newer.hangingUp(bye))
        XCTAssertEqual(try store.find("rec-1"), older, "one record per BYE")
        XCTAssertEqual(try store.hangUp([bye]), 1, "the older one, now the only one without a hang-up")
        XCTAssertEqual(try store.hangUp([bye]), 0)
        var unknown = bye
        unknown.callID = "no-such-call"
        XCTAssertEqual(try store.hangUp([unknown]), 0)
        XCTAssertEqual(try store.find("rec-4"), CallRecordFixture.record(4))
    }

    func testTheWriterPutsTheHangUpOnAWaitingVersionOrOnTheStoredRow() throws {
        let store = CallRecordStore(database: try TestDatabase.open(self))
        let writer = CallRecordWriter(store: store, logger: logger)
        // Saved and hung up before the thread runs: the waiting version takes it.
        let first = Self.answered(1)
        let firstBye = Self.bye(first, from: Self.deviceTag, to: Self.callerTag)
        writer.save(first)
        writer.hangUp(firstBye)
        writer.start()
        writer.flush()
        XCTAssertEqual(try store.find("rec-1"), first.hangingUp(firstBye))
        // Written first, hung up later: the stored row takes it.
        let second = Self.answered(2)
        writer.save(second)
        writer.flush()
        let secondBye = Self.bye(second, from: Self.callerTag, to: Self.deviceTag)
        writer.hangUp(secondBye)
        writer.flush()
        XCTAssertEqual(try store.find("rec-2"), second.hangingUp(secondBye))
        XCTAssertEqual(writer.failures, 0)
        writer.shutdown()
        writer.hangUp(secondBye)
        XCTAssertEqual(writer.failures, 1, "a hang-up after the shutdown is dropped and counted")
    }
}
