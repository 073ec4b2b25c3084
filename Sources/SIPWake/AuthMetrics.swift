import Metrics

/// What digest authentication counts, whatever the method.
struct AuthMetrics {
    let challenged, failures, replays, blocked, uriMismatches: Counter

    init(factory: any MetricsFactory) {
        challenged = Counter(label: "sipwake_digest_challenges_total", factory: factory)
        failures = Counter(label: "sipwake_digest_failures_total", factory: factory)
        replays = Counter(label: "sipwake_digest_replays_total", factory: factory)
        blocked = Counter(label: "sipwake_digest_blocked_total", factory: factory)
        uriMismatches = Counter(label: "sipwake_digest_uri_mismatches_total", factory: factory)
    }
}
