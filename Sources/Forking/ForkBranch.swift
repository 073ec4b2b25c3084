import Model

/// One forked INVITE as the state machine sees it.
struct ForkBranch: Sendable, Equatable {
    let id: BranchID
    /// The device: its `+sip.instance`, or else its Contact URI.
    let device: BindingKey
    let binding: Binding
    /// The first provisional response above 100.
    var provisional: Int?
    var final: Int?
    /// Set when sipwake cancelled this branch.
    var cancelled: CancelReason?

    /// Still waiting for a final response that can decide the call.
    var isLive: Bool { final == nil && cancelled == nil }
}
