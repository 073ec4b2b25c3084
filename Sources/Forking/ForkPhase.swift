/// Where a call is in its life.
public enum ForkPhase: String, Sendable, Equatable {
    /// The INVITE is in; the callee's device tuples are being read.
    case starting
    /// Pushes and branches are out; contacts that register are forked to.
    case live
    /// The caller has its final response. Devices that register within the
    /// grace period get the missed-call MESSAGE; late push answers are recorded.
    case ended
    /// Nothing more will happen: the proxy forgets the call.
    case finished
}
