import Model

/// One forked INVITE as the state machine sees it.
struct ForkBranch: Sendable, Equatable {
    let id: BranchID
    /// The device: its `+sip.instance`, or else its Contact URI.
    let device: BindingKey
    let binding: Binding
    /// The first provisional response above 100.
    var provisional: Int?
    /// The device sent 100 Trying: it has the INVITE, a CANCEL may go now.
    var trying = false
    /// The INVITE was stopped before anything came back (`.retire`): no final
    /// response is waited for.
    var retired = false
    var final: Int?
    /// Set when sipwake cancelled this branch.
    var cancelled: CancelReason?

    /// Still waiting for a final response that can decide the call.
    var isLive: Bool { final == nil && cancelled == nil }
    /// Nothing more is waited for on this branch.
    var isClosed: Bool { final != nil || retired }
    /// Nothing came back from the device at all.
    var isSilent: Bool { provisional == nil && !trying }
}
