import Metrics

/// What the forking proxy counts and times.
struct CallMetrics {
    let calls = Counter(label: "sipwake_calls_total")
    let rejected = Counter(label: "sipwake_calls_rejected_total")
    let branches = Counter(label: "sipwake_branches_total")
    let branchFailures = Counter(label: "sipwake_branch_failures_total")
    let pushes = Counter(label: "sipwake_pushes_total")
    let pushFailures = Counter(label: "sipwake_push_failures_total")
    let messageFailures = Counter(label: "sipwake_missed_call_message_failures_total")
    let forwarded = Counter(label: "sipwake_dialog_requests_forwarded_total")
    /// INVITE received → its branches sent.
    let forkLatency = Timer(label: "sipwake_call_fork_seconds")
    /// INVITE received → its pushes handed to the HTTP client.
    let pushLatency = Timer(label: "sipwake_call_push_seconds")
    /// REGISTER received → the late branch sent.
    let lateForkLatency = Timer(label: "sipwake_late_fork_seconds")
}
