/// What happened to an incoming call after the INVITE.
enum SofiaPhoneCallEvent: Sendable, Equatable {
    /// The caller sent CANCEL; `reason` is its Reason header value, if any.
    /// Sofia answered the INVITE 487 itself.
    case cancelled(reason: String?)
    /// The ACK for our 2xx arrived.
    case ack
    /// The other side hung up with BYE (answered 200 by Sofia).
    case bye
    /// The call is over; the phone has released it.
    case terminated
}
