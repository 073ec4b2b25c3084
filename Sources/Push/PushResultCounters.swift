import Metrics
import Model

/// `sipwake_push_results_total{provider, result}`: how many pushes each
/// provider delivered, found gone, left retryable or failed.
struct PushResultCounters: Sendable {
    private static let label = "sipwake_push_results_total"
    private static let kinds: [PushResultKind] = [.delivered, .tokenGone, .retryable, .failed]

    private let factory: any MetricsFactory
    /// The configured providers' counters, made once.
    private let byProvider: [String: [PushResultKind: Counter]]

    init(providers: [String], factory: any MetricsFactory) {
        self.factory = factory
        var byProvider: [String: [PushResultKind: Counter]] = [:]
        for provider in providers {
            var counters: [PushResultKind: Counter] = [:]
            for kind in Self.kinds { counters[kind] = Self.counter(provider: provider, kind: kind, factory: factory) }
            byProvider[provider] = counters
        }
        self.byProvider = byProvider
    }

    /// Makes the counters of `providers` (configured by a reload), so each
    /// is scraped from zero.
    func register(providers: [String]) {
        for provider in providers where byProvider[provider] == nil {
            for kind in Self.kinds { _ = Self.counter(provider: provider, kind: kind, factory: factory) }
        }
    }

    func count(provider: String, kind: PushResultKind) {
        // A push naming a provider that is not configured still counts, under the name it gave.
        let counter = byProvider[provider]?[kind] ?? Self.counter(provider: provider, kind: kind, factory: factory)
        counter.increment()
    }

    /// From a push's hand-off to the HTTP thread to its provider's answer
    /// (or its failure), by provider: `sipwake_push_seconds{provider}`.
    func time(provider: String, _ took: Duration) {
        Timer(label: "sipwake_push_seconds", dimensions: [("provider", provider)], factory: factory)
            .record(duration: took)
    }

    private static func counter(provider: String, kind: PushResultKind, factory: any MetricsFactory) -> Counter {
        Counter(label: label, dimensions: [("provider", provider), ("result", kind.rawValue)], factory: factory)
    }
}
