import Metrics

/// What the registrar counts. Failures are counted here rather than logged
/// at a high level for each request.
struct RegistrarMetrics {
    let accepted, rejected, challenged, forbidden: Counter
    let persistFailed, expired: Counter
    let bindings: Gauge
    let commitLatency: Timer

    init(factory: any MetricsFactory) {
        accepted = Counter(label: "sipwake_register_total", dimensions: [("result", "accepted")], factory: factory)
        rejected = Counter(label: "sipwake_register_total", dimensions: [("result", "rejected")], factory: factory)
        challenged = Counter(label: "sipwake_register_total", dimensions: [("result", "challenged")], factory: factory)
        forbidden = Counter(label: "sipwake_register_total", dimensions: [("result", "forbidden")], factory: factory)
        persistFailed = Counter(label: "sipwake_register_persist_failures_total", factory: factory)
        expired = Counter(label: "sipwake_bindings_expired_total", factory: factory)
        bindings = Gauge(label: "sipwake_bindings", factory: factory)
        commitLatency = Timer(label: "sipwake_register_commit_seconds", factory: factory)
    }
}
