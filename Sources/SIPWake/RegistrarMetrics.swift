import Metrics

/// What the registrar counts. Challenges and refused credentials are
/// counted by the authenticator (`AuthMetrics`), for every method.
struct RegistrarMetrics {
    let accepted, rejected: Counter
    /// A binding change not committed (the REGISTER got 500); expired
    /// bindings not deleted from disk.
    let persistFailed, expiryDeleteFailed, expired: Counter
    let bindings: Gauge
    let commitLatency: Timer
    /// Answers kept for retransmissions (`RegisterAnswers`), retransmissions
    /// answered from them or dropped while their REGISTER waited, answers
    /// forgotten early to make room.
    let answersKept: Gauge
    let retransmissionsAnswered, retransmissionsDropped, answersEvicted: Counter
    /// REGISTERs still unanswered when their phone stopped retransmitting
    /// (32 s): no longer taken as in progress.
    let unanswered: Counter
    /// Bindings the operator deleted that this server held, dropped from
    /// memory; reads of the deletion feed (or writes of those removals)
    /// that failed.
    let deleted, deletionFeedFailed: Counter

    init(factory: any MetricsFactory) {
        accepted = Counter(label: "sipwake_register_total", dimensions: [("result", "accepted")], factory: factory)
        rejected = Counter(label: "sipwake_register_total", dimensions: [("result", "rejected")], factory: factory)
        expiryDeleteFailed = Counter(label: "sipwake_bindings_expiry_delete_failures_total", factory: factory)
        persistFailed = Counter(label: "sipwake_register_persist_failures_total", factory: factory)
        expired = Counter(label: "sipwake_bindings_expired_total", factory: factory)
        bindings = Gauge(label: "sipwake_bindings", factory: factory)
        commitLatency = Timer(label: "sipwake_register_commit_seconds", factory: factory)
        answersKept = Gauge(label: "sipwake_register_answers_kept", factory: factory)
        retransmissionsAnswered = Counter(label: "sipwake_register_retransmissions_total",
                                          dimensions: [("result", "answered")], factory: factory)
        retransmissionsDropped = Counter(label: "sipwake_register_retransmissions_total",
                                         dimensions: [("result", "dropped")], factory: factory)
        answersEvicted = Counter(label: "sipwake_register_answers_evicted_total", factory: factory)
        unanswered = Counter(label: "sipwake_register_unanswered_total", factory: factory)
        deleted = Counter(label: "sipwake_bindings_deleted_total", factory: factory)
        deletionFeedFailed = Counter(label: "sipwake_bindings_deletion_feed_failures_total", factory: factory)
    }
}
