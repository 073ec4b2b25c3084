import Metrics

/// What the registrar counts. Failures are counted here rather than logged
/// at a high level for each request.
struct RegistrarMetrics {
    let accepted = Counter(label: "sipwake_register_total", dimensions: [("result", "accepted")])
    let rejected = Counter(label: "sipwake_register_total", dimensions: [("result", "rejected")])
    let challenged = Counter(label: "sipwake_register_total", dimensions: [("result", "challenged")])
    let forbidden = Counter(label: "sipwake_register_total", dimensions: [("result", "forbidden")])
    let persistFailed = Counter(label: "sipwake_register_persist_failures_total")
    let expired = Counter(label: "sipwake_bindings_expired_total")
    let bindings = Gauge(label: "sipwake_bindings")
    let commitLatency = Timer(label: "sipwake_register_commit_seconds")
}
