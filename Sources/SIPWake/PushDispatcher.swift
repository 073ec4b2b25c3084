import Forking
import Foundation
import Logging
import Metrics
import Model
import Ports

/// The pushes of the forking proxy: builds the message for one of a call's
/// device tuples, hands it to the push sender, and, when call records are
/// off, writes the result on the tuple (otherwise the record writer does it
/// in its batch). Results go back to the caller, which feeds them to the call.
struct PushDispatcher: Sendable {
    let sender: (any PushSender)?
    /// Where results are written on their tuple: set when call records are
    /// off, nil when the record writer does it.
    let tupleResults: DeviceTupleQueue?
    var incomingBadge = 0
    var missedBadge = 1
    var sound: String? = "default"
    /// Per app id, its own sound instead of `sound` ("" = none).
    var appSounds: [String: String] = [:]
    /// How long a call waits for a woken device: an incoming-call push is useless after that.
    var wakeWindow: TimeInterval = 30

    /// The push of `event` for `target` in the call `pairingID`; nil when the tuple has no token for it.
    /// `outcome` is how the call ended (nil while pending) and `calledNumber`
    /// what the caller dialled: the customer's webhook reports both.
    func message(for target: PushTarget, _ event: PushEvent, pairingID: String, caller: CallerInfo, media: String,
                 callee: String, callStartedAt: Date, at now: Date, outcome: CallOutcome? = nil,
                 calledNumber: String? = nil) -> PushMessage? {
        guard let address = target.address(for: event) else { return nil }
        let incoming = event == .incomingCall
        var sound = self.sound
        if let own = appSounds[address.appID] { sound = own.isEmpty ? nil : own }
        return PushMessage(
            provider: target.provider, event: event, tupleID: target.tupleID, appID: address.appID,
            deviceToken: address.token, selector: target.selector, pairingID: pairingID,
            callerDisplayName: caller.displayName, callerUser: caller.user, callerDomain: caller.domain,
            media: incoming ? media : nil, badge: incoming ? incomingBadge : missedBadge,
            sound: sound,
            sentAt: now, expiresAt: incoming ? now.addingTimeInterval(wakeWindow) : nil,
            callee: callee, callerURI: caller.uri, callStartedAt: callStartedAt, callOutcome: outcome,
            calledNumber: calledNumber)
    }

    /// Sends `message`, whose outcome `completion` gets later, and returns
    /// nil; or returns the failure at once, without calling `completion`,
    /// when there is nothing to send (push delivery is off, or no token).
    func send(_ message: PushMessage?, completion: @escaping @Sendable (PushResult) -> Void) -> PushResult? {
        guard let sender, let message else { return .failed(status: nil, detail: "push delivery is off") }
        sender.send(message, completion: completion)
        return nil
    }

    /// Puts `result` on the tuple, off the loop, when call records are off.
    /// `sentAt` keeps the answer off a tuple created after the push left.
    /// A write that fails is logged at warning and counted in `failed`; a
    /// tuple already gone (its token was, and it was deleted) is no failure.
    func recordOnTuple(_ result: PushResult, tupleID: Int64, sentAt: Date, at now: Date, logger: Logger,
                       failed: Counter) {
        guard let tuples = tupleResults else { return }
        tuples.write { store in
            do {
                try store.recordPushResult(id: tupleID, sentAt: sentAt, at: now, status: result.httpStatus,
                                           result: result.name)
            } catch StorageError.tupleNotFound {
                logger.debug("push result for a tuple already deleted", metadata: ["push.tuple_id": .stringConvertible(tupleID)])
            } catch {
                failed.increment()
                logger.warning("push result not written on the tuple",
                               metadata: ["push.tuple_id": .stringConvertible(tupleID), "error": "\(error)"])
            }
        }
    }
}
