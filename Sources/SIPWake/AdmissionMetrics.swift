import Metrics

/// Requests dropped unanswered by the flood check, by why.
struct AdmissionMetrics {
    let sourceLimit, globalLimit, overload: Counter

    init(factory: any MetricsFactory) {
        sourceLimit = Counter(label: "sipwake_sip_dropped_total", dimensions: [("reason", "source-limit")], factory: factory)
        globalLimit = Counter(label: "sipwake_sip_dropped_total", dimensions: [("reason", "global-limit")], factory: factory)
        overload = Counter(label: "sipwake_sip_dropped_total", dimensions: [("reason", "overload")], factory: factory)
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
