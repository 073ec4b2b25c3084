import Forking
import Model
import Ports

/// Decides when a call's record is handed to the call record writer: when
/// the call starts, when it ends, when an end notification is answered, and
/// when the call is forgotten; and hands it the hang-up of an answered call
/// already forgotten. Without a writer (retention 0) nothing is saved.
struct CallRecorder {
    let sink: (any CallRecordSink)?

    /// Whether call records are kept: the writer then also puts each push
    /// result on its tuple.
    var isOn: Bool { sink != nil }

    /// After `fork` handled `event`: saves `record` (the call's record as it
    /// stands) when it is due and differs from the version last saved.
    func afterEvent(_ event: ForkEvent, fork: CallFork, saved: inout SavedCallRecord,
                    record: @autoclosure () -> CallRecord) {
        let phase = fork.phase
        var endPushAnswered = false
        if case .pushResult = event, phase == .ended { endPushAnswered = true }
        guard phase != saved.phase || endPushAnswered else { return }
        saved.phase = phase
        write(record(), &saved)
    }

    /// The call is forgotten: a call forgotten early (shutdown) keeps what it had.
    func forgotten(fork: CallFork, saved: inout SavedCallRecord, record: @autoclosure () -> CallRecord) {
        if saved.phase != .finished { write(record(), &saved) }
    }

    /// Something the state machine does not see changed the record (the
    /// BYE of the answered call): saved now.
    func save(_ record: CallRecord, saved: inout SavedCallRecord) {
        write(record, &saved)
    }

    /// Hands `record` to the writer unless it is the version last handed:
    /// each version costs a JSON encoding and a row write.
    private func write(_ record: CallRecord, _ saved: inout SavedCallRecord) {
        guard let sink, record != saved.record else { return }
        sink.save(record)
        saved.record = record
    }

    /// The BYE of an answered call no longer in memory: for its stored record.
    func hungUp(_ bye: CallHangUp) {
        sink?.hangUp(bye)
    }
}
