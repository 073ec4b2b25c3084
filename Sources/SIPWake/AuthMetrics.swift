import Metrics

/// What digest authentication counts, whatever the method.
struct AuthMetrics {
    let challenged = Counter(label: "sipwake_digest_challenges_total")
    let failures = Counter(label: "sipwake_digest_failures_total")
    let replays = Counter(label: "sipwake_digest_replays_total")
    let blocked = Counter(label: "sipwake_digest_blocked_total")
    let uriMismatches = Counter(label: "sipwake_digest_uri_mismatches_total")
}
