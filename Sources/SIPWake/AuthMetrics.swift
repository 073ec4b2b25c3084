import Metrics

/// What digest authentication counts, whatever the method.
struct AuthMetrics {
    let challenged, failures, replays, blocked, uriMismatches: Counter
    /// Credentials of another user than the one the request acts for.
    let forbidden: Counter
    /// Credentials Sofia parsed but the digest rules refuse (a malformed nc, a qop not offered).
    let malformed: Counter
    /// Requests answered at once because no more could wait for a user lookup.
    let parkingFull: Counter

    init(factory: any MetricsFactory) {
        challenged = Counter(label: "sipwake_digest_challenges_total", factory: factory)
        failures = Counter(label: "sipwake_digest_failures_total", factory: factory)
        replays = Counter(label: "sipwake_digest_replays_total", factory: factory)
        blocked = Counter(label: "sipwake_digest_blocked_total", factory: factory)
        uriMismatches = Counter(label: "sipwake_digest_uri_mismatches_total", factory: factory)
        forbidden = Counter(label: "sipwake_digest_forbidden_total", factory: factory)
        malformed = Counter(label: "sipwake_digest_malformed_total", factory: factory)
        parkingFull = Counter(label: "sipwake_digest_lookups_refused_total", factory: factory)
    }
}
