/// What went wrong for an INVITE branch sipwake stopped before the device
/// said anything (`RetiredBranch`), told to `SIPAgent.onRetiredBranchFailure`
/// so that the layer with the metrics and the log can count and report it.
public enum RetiredBranchFailure: Equatable, Sendable {
    /// The device rang on the stopped INVITE (provisional `status`) and the
    /// CANCEL could not be sent: it may ring on until it gives up by itself.
    /// Tried again on its next provisional response.
    case cancelNotSent(branch: String, status: Int)
    /// The device's non-2xx final response (`status`) could not be ACKed: it
    /// retransmits the response until its Timer H.
    case ackNotSent(branch: String, status: Int)
    /// `count` stopped branches were forgotten before Timer C because
    /// `RetiredBranches` was full: a device that rings on one of them later
    /// gets no CANCEL from sipwake.
    case forgottenEarly(count: Int)
}
