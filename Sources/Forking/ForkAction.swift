import Model

/// What the proxy must do for a call, as the state machine decides it.
public enum ForkAction: Sendable, Equatable {
    /// Send the INVITE to this contact as a new branch (with `X-Push-ID`).
    case fork(BranchID, Binding)
    /// CANCEL a branch (the device has answered it, if only with 100).
    case cancel(BranchID, CancelReason)
    /// Stop a branch nothing has answered yet: its INVITE is no longer
    /// retransmitted; a CANCEL (with this reason) goes out only if the device
    /// answers it provisionally later (RFC 3261 §9.1).
    case retire(BranchID, CancelReason)
    /// Relay this branch's provisional response upstream.
    case relayProvisional(BranchID, status: Int)
    /// Relay this branch's final response upstream.
    case relayFinal(BranchID, status: Int)
    /// Answer the caller with a response of sipwake's own.
    case respond(status: Int)
    /// Answer the caller 503 with Retry-After: sipwake is shutting down, the
    /// PBX should route the call elsewhere.
    case respondShuttingDown
    /// Send 180 Ringing upstream (ringback while the phone wakes).
    case ringback
    /// Send one push.
    case push(PushID, PushTarget, PushEvent)
    /// Delete a device tuple whose token its push provider no longer knows.
    case deleteTuple(Int64)
    /// Send the `application/x-acro-missed-call` MESSAGE to this contact.
    case missedCallMessage(Binding)
}
