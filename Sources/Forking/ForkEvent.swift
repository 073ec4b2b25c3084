import Model

/// What happens to a call, as the proxy tells the state machine.
public enum ForkEvent: Sendable, Equatable {
    /// The INVITE is accepted: the callee's registered contacts, its device
    /// tuples when already known (nil while they are read: `.tuplesLoaded`
    /// follows; empty when pushes are off), and the user's wake-up hold flag.
    /// The branches go out at once; pushes never delay them.
    case start(bindings: [Binding], targets: [PushTarget]?, wakeupHold: Bool)
    /// The callee's device tuples, read after `.start(targets: nil)`.
    case tuplesLoaded([PushTarget])
    /// A branch sent a provisional response (101-199).
    case provisional(BranchID, status: Int)
    /// A branch ended with a final response, or Sofia ended it (408 for a
    /// timeout, 503 for an unreachable next hop).
    case final(BranchID, status: Int)
    /// sipwake (or Sofia in its name) ended a branch itself, with no
    /// response from the device: its flow is gone, no route, no answer in
    /// time. Handled as `.final`; the record keeps `reason`.
    case localFinal(BranchID, status: Int, reason: String)
    /// The caller sent CANCEL; `answeredElsewhere` when its Reason said cause=200.
    case callerCancelled(answeredElsewhere: Bool)
    /// The registrar accepted a new contact of the callee.
    case bindingAdded(Binding)
    /// The registrar accepted a refresh of an existing contact of the callee.
    case bindingRefreshed(old: Binding, new: Binding)
    /// A contact of the callee was removed or expired.
    case bindingRemoved(Binding)
    /// The push provider answered one push attempt (or the push could not be sent).
    case pushResult(PushID, PushResult)
    /// The clock passed `CallFork.nextDeadline`.
    case timer
    /// sipwake is shutting down (SIGTERM/SIGINT): a call in progress ends
    /// now, and no call waits for its grace period any more.
    case shutdown
}
