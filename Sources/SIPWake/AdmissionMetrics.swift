import Metrics

/// Requests dropped unanswered by the flood check, by why, and requests
/// refused because they would have made sipwake a relay.
struct AdmissionMetrics {
    let sourceLimit, globalLimit, overload: Counter
    /// 403 Relaying Forbidden: a request for a domain sipwake does not serve.
    /// Logged at debug only: strangers send these at flood rates.
    let relayRefused: Counter

    init(factory: any MetricsFactory) {
        sourceLimit = Counter(label: "sipwake_sip_dropped_total", dimensions: [("reason", "source-limit")], factory: factory)
        globalLimit = Counter(label: "sipwake_sip_dropped_total", dimensions: [("reason", "global-limit")], factory: factory)
        overload = Counter(label: "sipwake_sip_dropped_total", dimensions: [("reason", "overload")], factory: factory)
        relayRefused = Counter(label: "sipwake_relay_refused_total", factory: factory)
    }

    func count(_ decision: RequestAdmission.Decision) {
        switch decision {
        case .admit: break
        case .dropSourceLimit: sourceLimit.increment()
        case .dropGlobalLimit: globalLimit.increment()
        case .dropOverload: overload.increment()
        }
    }
}
