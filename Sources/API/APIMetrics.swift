import Metrics

/// What the HTTP side counts, reported to the metrics backend `serve`
/// bootstraps (swift-metrics): every failed login, every request refused
/// while its pair or address is blocked, every Digest refusal and every
/// internal error.
struct APIMetrics: Sendable {
    /// A wrong password, an unknown user or a wrong Digest response (reporters).
    let reporterLoginFailures: Counter
    /// A wrong bearer token (admin API).
    let adminLoginFailures: Counter
    /// Requests refused with 429 while blocked.
    let reporterBlocked: Counter
    let adminBlocked: Counter
    /// Reporter requests refused before any password was checked.
    let replays: Counter
    let uriMismatches: Counter
    let badUsernames: Counter
    /// 500s: a store that failed.
    let internalErrors: Counter

    init(factory: any MetricsFactory) {
        func counter(_ label: String, _ dimensions: [(String, String)]) -> Counter {
            Counter(label: label, dimensions: dimensions, factory: factory)
        }
        reporterLoginFailures = counter("sipwake_http_login_failures_total", [("api", "reporter")])
        adminLoginFailures = counter("sipwake_http_login_failures_total", [("api", "admin")])
        reporterBlocked = counter("sipwake_http_blocked_total", [("api", "reporter")])
        adminBlocked = counter("sipwake_http_blocked_total", [("api", "admin")])
        replays = counter("sipwake_http_refused_total", [("reason", "replay")])
        uriMismatches = counter("sipwake_http_refused_total", [("reason", "uri-mismatch")])
        badUsernames = counter("sipwake_http_refused_total", [("reason", "bad-username")])
        internalErrors = counter("sipwake_http_internal_errors_total", [])
    }
}
