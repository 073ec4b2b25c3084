import Metrics

/// What the RFC 8599 side of the registrar counts.
struct PNSMetrics {
    /// REGISTERs answered 555: their `pn-provider` or `pn-param` names no configured app.
    let unsupported: Counter
    /// Push targets not stored, removed or read back (the REGISTER got 500,
    /// no such user, a stale target left, the refresh schedule not restored).
    let storeFailed: Counter
    /// Binding-refresh pushes by result, and refreshes the phone never answered.
    let refreshDelivered, refreshFailed, refreshUnanswered, refreshAnswered: Counter

    init(factory: any MetricsFactory) {
        unsupported = Counter(label: "sipwake_register_pns_unsupported_total", factory: factory)
        storeFailed = Counter(label: "sipwake_register_pns_store_failures_total", factory: factory)
        refreshDelivered = Counter(label: "sipwake_binding_refresh_pushes_total", dimensions: [("result", "delivered")],
                                   factory: factory)
        refreshFailed = Counter(label: "sipwake_binding_refresh_pushes_total", dimensions: [("result", "failed")],
                                factory: factory)
        refreshUnanswered = Counter(label: "sipwake_binding_refresh_unanswered_total", factory: factory)
        refreshAnswered = Counter(label: "sipwake_binding_refresh_answered_total", factory: factory)
    }
}
