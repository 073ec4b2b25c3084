import Metrics
import Model

/// What the forking proxy counts and times.
struct CallMetrics {
    let calls, rejected, branches, branchFailures, pushes, pushFailures, messageFailures, forwarded: Counter
    /// Refused INVITEs past the record cap: counted, not recorded.
    let rejectedUnrecorded: Counter
    /// In-dialog requests refused: a Route sipwake did not sign, a relay to
    /// a third host, Max-Forwards exhausted.
    let dialogRefused: Counter
    /// A callee's device tuples not read, a stale tuple not deleted, a push
    /// answer not written on its tuple.
    let tupleFailures: Counter
    /// Branches stopped before the device answered anything (their INVITE
    /// no longer retransmitted; a CANCEL follows only if the device rings).
    let branchesRetired: Counter
    /// What went wrong for stopped branches (`StoppedBranchFailures`): a
    /// CANCEL or an ACK not sent, branches forgotten before Timer C.
    let stoppedBranchCancelNotSent, stoppedBranchAckNotSent, stoppedBranchesForgottenEarly: Counter
    /// INVITE received → its branches sent.
    let forkLatency: Timer
    /// INVITE received → its pushes handed to the HTTP client.
    let pushLatency: Timer
    /// REGISTER received → the late branch sent.
    let lateForkLatency: Timer
    /// Another node's binding commit → the late branch to it sent here.
    let remoteForkLatency: Timer
    /// Calls ended, by outcome (`sipwake_calls_ended_total{outcome}`).
    let ended: [CallOutcome: Counter]
    private let factory: any MetricsFactory

    /// `factory` is the metrics backend `serve` set up.
    init(factory: any MetricsFactory) {
        calls = Counter(label: "sipwake_calls_total", factory: factory)
        rejected = Counter(label: "sipwake_calls_rejected_total", factory: factory)
        rejectedUnrecorded = Counter(label: "sipwake_calls_rejected_unrecorded_total", factory: factory)
        branches = Counter(label: "sipwake_branches_total", factory: factory)
        branchFailures = Counter(label: "sipwake_branch_failures_total", factory: factory)
        pushes = Counter(label: "sipwake_pushes_total", factory: factory)
        pushFailures = Counter(label: "sipwake_push_failures_total", factory: factory)
        messageFailures = Counter(label: "sipwake_missed_call_message_failures_total", factory: factory)
        forwarded = Counter(label: "sipwake_dialog_requests_forwarded_total", factory: factory)
        dialogRefused = Counter(label: "sipwake_dialog_requests_refused_total", factory: factory)
        tupleFailures = Counter(label: "sipwake_tuple_failures_total", factory: factory)
        branchesRetired = Counter(label: "sipwake_branches_stopped_silent_total", factory: factory)
        stoppedBranchCancelNotSent = Counter(label: "sipwake_stopped_branch_failures_total",
                                             dimensions: [("kind", "cancel_not_sent")], factory: factory)
        stoppedBranchAckNotSent = Counter(label: "sipwake_stopped_branch_failures_total",
                                          dimensions: [("kind", "ack_not_sent")], factory: factory)
        stoppedBranchesForgottenEarly = Counter(label: "sipwake_stopped_branch_failures_total",
                                                dimensions: [("kind", "forgotten_early")], factory: factory)
        forkLatency = Timer(label: "sipwake_call_fork_seconds", factory: factory)
        pushLatency = Timer(label: "sipwake_call_push_seconds", factory: factory)
        lateForkLatency = Timer(label: "sipwake_late_fork_seconds", factory: factory)
        remoteForkLatency = Timer(label: "sipwake_remote_fork_seconds", factory: factory)
        self.factory = factory
        ended = Dictionary(uniqueKeysWithValues: CallOutcome.allCases.map { outcome in
            (outcome, Counter(label: "sipwake_calls_ended_total", dimensions: [("outcome", outcome.rawValue)], factory: factory))
        })
    }

    /// From a device's incoming-call push to it registering (`until`
    /// "register") or to its INVITE leaving (`until` "invite"), by push
    /// provider and platform (`unknown` when the app did not say): how long
    /// the phones take to wake. Recorded in seconds.
    /// A tuple's provider is the name its app reported (any short
    /// lowercase word): a name sipwake does not push through is labelled
    /// `other`, so a user's reports cannot make series without end.
    func wake(provider: String, platform: DevicePlatform?, until: String) -> Timer {
        let known = Self.wakeProviders.contains(provider) ? provider : "other"
        return Timer(label: "sipwake_device_wake_seconds",
                     dimensions: [("provider", known), ("platform", platform?.rawValue ?? "unknown"), ("until", until)],
                     factory: factory)
    }

    /// The providers sipwake pushes through.
    static let wakeProviders: Set<String> = [DeviceTuple.defaultProvider, "apns", "fcm"]
}
