import Forking
import Foundation
import Model
import Ports
@testable import SIPWake
import Synchronization
import Testing

/// The call record writer as the recorder sees it: the records handed to it.
final class SavedRecords: CallRecordSink {
    private let saved = Mutex<[CallRecord]>([])
    private let byes = Mutex<[CallHangUp]>([])
    var records: [CallRecord] { saved.withLock { $0 } }
    var hangUps: [CallHangUp] { byes.withLock { $0 } }
    func start() {}
    func save(_ record: CallRecord) { saved.withLock { $0.append(record) } }
    func hangUp(_ bye: CallHangUp) { byes.withLock { $0.append(bye) } }
    func flush() {}
    func shutdown() {}
}

@Suite struct CallRecorderTests {
    static let t0 = Date(timeIntervalSince1970: 1_700_000_000)
    static let caller = CallerInfo(uri: "sip:bob@pbx.example", displayName: "Bob", user: "bob", domain: "pbx.example")
    static let target = PushTarget(tupleID: 7, selector: "sel7", callsAppID: "app.calls", callsToken: "tok-7",
                                   otherAppID: "app.other", otherToken: "tok-7")

    func fork() -> CallFork {
        CallFork(recordID: "rec-1", pairingID: "pair-1", callID: "call-1", callee: "alice", caller: Self.caller,
                 settings: ForkSettings(), now: Self.t0)
    }

    @Test func theRecordIsSavedWhenThePhaseChangesOnly() {
        let sink = SavedRecords()
        let recorder = CallRecorder(sink: sink)
        var fork = fork()
        var saved = SavedCallRecord()
        let start = ForkEvent.start(bindings: [], targets: nil, wakeupHold: true)
        _ = fork.handle(start, now: Self.t0)
        recorder.afterEvent(start, fork: fork, saved: &saved, record: fork.record)
        #expect(saved.phase == fork.phase)
        #expect(sink.records.count == 1)
        // The same phase again: nothing new to write.
        recorder.afterEvent(.timer, fork: fork, saved: &saved, record: fork.record)
        #expect(sink.records.count == 1)
    }

    @Test func aVersionIdenticalToTheLastSavedIsNotWrittenAgain() {
        let sink = SavedRecords()
        let recorder = CallRecorder(sink: sink)
        var fork = fork()
        var saved = SavedCallRecord()
        _ = fork.handle(.start(bindings: [], targets: [Self.target], wakeupHold: true), now: Self.t0)
        _ = fork.handle(.callerCancelled(answeredElsewhere: false), now: Self.t0.addingTimeInterval(1))
        recorder.afterEvent(.timer, fork: fork, saved: &saved, record: fork.record)
        #expect(sink.records.count == 1)
        // The BYE of the answered call, seen outside the state machine: a new version.
        var hungUp = fork.record
        hungUp.hungUpAt = Self.t0.addingTimeInterval(5)
        recorder.save(hungUp, saved: &saved)
        #expect(sink.records.count == 2)
        recorder.save(hungUp, saved: &saved)
        #expect(sink.records.count == 2, "the same version again")
        // The call finishes with nothing new since: its phase changed, its record did not.
        saved.phase = .live
        recorder.afterEvent(.timer, fork: fork, saved: &saved, record: hungUp)
        #expect(sink.records.count == 2)
        recorder.forgotten(fork: fork, saved: &saved, record: hungUp)
        #expect(sink.records.count == 2)
    }

    @Test func anAnsweredEndNotificationIsSavedInTheEndedPhase() {
        let sink = SavedRecords()
        let recorder = CallRecorder(sink: sink)
        var fork = fork()
        let actions = fork.handle(.start(bindings: [], targets: [Self.target], wakeupHold: true), now: Self.t0)
        #expect(actions.contains { if case .push = $0 { true } else { false } })
        _ = fork.handle(.callerCancelled(answeredElsewhere: false), now: Self.t0.addingTimeInterval(1))
        #expect(fork.phase == .ended)
        let answer = ForkEvent.pushResult(1, .delivered(status: 200))
        _ = fork.handle(answer, now: Self.t0.addingTimeInterval(1.1))
        var saved = SavedCallRecord(phase: .ended, record: nil)
        recorder.afterEvent(answer, fork: fork, saved: &saved, record: fork.record)
        #expect(saved.phase == .ended)
        #expect(sink.records.count == 1)
        recorder.afterEvent(.timer, fork: fork, saved: &saved, record: fork.record)
        #expect(sink.records.count == 1)
    }

    @Test func aCallForgottenBeforeItFinishedKeepsWhatItHad() {
        let sink = SavedRecords()
        let recorder = CallRecorder(sink: sink)
        var live = SavedCallRecord(phase: .live, record: nil)
        recorder.forgotten(fork: fork(), saved: &live, record: fork().record)
        #expect(sink.records.count == 1)
        var finished = SavedCallRecord(phase: .finished, record: nil)
        recorder.forgotten(fork: fork(), saved: &finished, record: fork().record)
        #expect(sink.records.count == 1)
    }

    @Test func withoutAWriterNothingIsSaved() {
        let recorder = CallRecorder(sink: nil)
        #expect(!recorder.isOn)
        var fork = fork()
        var saved = SavedCallRecord()
        let start = ForkEvent.start(bindings: [], targets: [], wakeupHold: false)
        _ = fork.handle(start, now: Self.t0)
        recorder.afterEvent(start, fork: fork, saved: &saved, record: fork.record)
        #expect(saved.phase == fork.phase)
        #expect(saved.record == nil)
    }
}
