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
        let start = ForkEvent.start(bindings: [], targets: nil, wakeupHold: true)
        _ = fork.handle(start, now: Self.t0)
        var saved = recorder.afterEvent(start, fork: fork, savedPhase: nil, record: fork.record)
        #expect(saved == fork.phase)
        #expect(sink.records.count == 1)
        // The same phase again: nothing new to write.
        saved = recorder.afterEvent(.timer, fork: fork, savedPhase: saved, record: fork.record)
        #expect(sink.records.count == 1)
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
        #expect(recorder.afterEvent(answer, fork: fork, savedPhase: .ended, record: fork.record) == .ended)
        #expect(sink.records.count == 1)
        #expect(recorder.afterEvent(.timer, fork: fork, savedPhase: .ended, record: fork.record) == .ended)
        #expect(sink.records.count == 1)
    }

    @Test func aCallForgottenBeforeItFinishedKeepsWhatItHad() {
        let sink = SavedRecords()
        let recorder = CallRecorder(sink: sink)
        recorder.forgotten(fork: fork(), savedPhase: .live, record: fork().record)
        #expect(sink.records.count == 1)
        recorder.forgotten(fork: fork(), savedPhase: .finished, record: fork().record)
        #expect(sink.records.count == 1)
    }

    @Test func withoutAWriterNothingIsSaved() {
        let recorder = CallRecorder(sink: nil)
        #expect(!recorder.isOn)
        var fork = fork()
        let start = ForkEvent.start(bindings: [], targets: [], wakeupHold: false)
        _ = fork.handle(start, now: Self.t0)
        #expect(recorder.afterEvent(start, fork: fork, savedPhase: nil, record: fork.record) == fork.phase)
    }
}
