import Forking
import Foundation
import Logging
import Model
import Ports
import Registrar
import SIPCore

/// One incoming call while sipwake handles it: the caller's INVITE server
/// transaction, the pure state machine deciding what happens, and the SIP
/// and push work carried out for it. Owned by `CallProxy`, loop thread only.
final class PendingCall {
    let key: String
    let aor: String
    let request: IncomingRequest
    var fork: CallFork
    let pairingID: String
    let caller: CallerInfo
    let media: String
    /// The caller-facing Record-Route token.
    let callerToken: String
    /// The client transaction of each branch.
    var branches: [BranchID: ProxyBranch] = [:]
    /// The latest provisional and the final response of each branch, kept to
    /// relay upstream when the state machine says so.
    var provisional: [BranchID: SIPResponse] = [:]
    var finals: [BranchID: SIPResponse] = [:]
    /// What the caller's CANCEL said, to pass on to the branches.
    var cancelReason: String?
    /// Device tuples whose wake time this call has recorded (once each).
    var woken: Set<Int64> = []
    /// The record last handed to the writer, and the phase it was handed in.
    var saved = SavedCallRecord()
    /// The answering device's dialog tag (the To tag of the first 2xx relayed).
    var answerTag: String?
    /// The BYE that ended the answered call, while the call is still kept.
    var hangUp: CallHangUp?
    /// The proxy's logger with the call's pairing id and Call-ID set.
    let logger: Logger
    /// The user part the caller dialled (the To URI's), for the webhook's `to_number`.
    let calledNumber: String?

    init(key: String, aor: String, request: IncomingRequest, fork: CallFork, pairingID: String,
         caller: CallerInfo, media: String, callerToken: String, logger: Logger, calledNumber: String? = nil) {
        self.logger = logger
        self.calledNumber = calledNumber
        self.key = key
        self.aor = aor
        self.request = request
        self.fork = fork
        self.pairingID = pairingID
        self.caller = caller
        self.media = media
        self.callerToken = callerToken
    }

    /// The call's record as it is saved: the state machine's, with what the
    /// proxy saw of the answered dialog (its tag, its BYE).
    var record: CallRecord {
        var record = fork.record
        record.answerTag = answerTag
        if let hangUp, let ended = record.hangingUp(hangUp) { record = ended }
        return record
    }

    /// Frees every client transaction (on the next loop turn).
    func releaseBranches() {
        for branch in branches.values { branch.release() }
        branches.removeAll()
        provisional.removeAll()
        finals.removeAll()
    }
}
