import Metrics

/// Requests dropped unanswered by the flood check, by why.
struct AdmissionMetrics {
    let sourceLimit = Counter(label: "sipwake_sip_dropped_total", dimensions: [("reason", "source-limit")])
    let globalLimit = Counter(label: "sipwake_sip_dropped_total", dimensions: [("reason", "global-limit")])
    let overload = Counter(label: "sipwake_sip_dropped_total", dimensions: [("reason", "overload")])

    func count(_ decision: RequestAdmission.Decision) {
        switch decision {
        case .admit: break
        case .dropSourceLimit: sourceLimit.increment()
        case .dropGlobalLimit: globalLimit.increment()
        case .dropOverload: overload.increment()
        }
    }
}
