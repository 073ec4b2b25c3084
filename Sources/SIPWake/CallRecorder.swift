import Forking
import Model
import Ports

/// Decides when a call's record is handed to the call record writer: when
/// the call starts, when it ends, when an end notification is answered, and
/// when the call is forgotten. Without a writer (retention 0) nothing is saved.
struct CallRecorder {
    let sink: (any CallRecordSink)?

    /// Whether call records are kept: the writer then also puts each push
    /// result on its tuple.
    var isOn: Bool { sink != nil }

    /// After `fork` handled `event`: saves the record when it is due, and
    /// returns the phase it was last saved in.
    func afterEvent(_ event: ForkEvent, fork: CallFork, savedPhase: ForkPhase?) -> ForkPhase? {
        let phase = fork.phase
        var endPushAnswered = false
        if case .pushResult = event, phase == .ended { endPushAnswered = true }
        guard phase != savedPhase || endPushAnswered else { return savedPhase }
        sink?.save(fork.record)
        return phase
    }

    /// The call is forgotten: a call forgotten early (shutdown) keeps what it had.
    func forgotten(fork: CallFork, savedPhase: ForkPhase?) {
        if savedPhase != .finished { sink?.save(fork.record) }
    }
}
