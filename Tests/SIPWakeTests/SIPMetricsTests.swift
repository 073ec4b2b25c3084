import Foundation
import Metrics
import Prometheus
@testable import SIPWake
import Testing

/// The registrar, authentication, flood and call counters report to the
/// backend `serve` hands them (a Prometheus registry), not to a no-op.
@Suite struct SIPMetricsTests {
    let registry = PrometheusCollectorRegistry()
    var factory: PrometheusMetricsFactory { PrometheusMetricsFactory(registry: registry) }

    /// The registry's exposition line for `name`, e.g. `sipwake_bindings 3`.
    func line(_ name: String) -> String? {
        registry.emitToString().split(separator: "\n").map(String.init).first { $0.hasPrefix(name + " ") }
    }

    @Test func registrarEventsAreCounted() {
        let metrics = RegistrarMetrics(factory: factory)
        metrics.accepted.increment()
        metrics.accepted.increment()
        metrics.rejected.increment()
        metrics.expired.increment(by: 3)
        metrics.bindings.record(5)
        #expect(line(#"sipwake_register_total{result="accepted"}"#) == #"sipwake_register_total{result="accepted"} 2"#)
        #expect(line(#"sipwake_register_total{result="rejected"}"#) == #"sipwake_register_total{result="rejected"} 1"#)
        #expect(line("sipwake_bindings_expired_total") == "sipwake_bindings_expired_total 3")
        #expect(line("sipwake_bindings") == "sipwake_bindings 5.0")
    }

    @Test func commitLatencyIsAHistogram() {
        RegistrarMetrics(factory: factory).commitLatency.record(duration: .milliseconds(2))
        #expect(line("sipwake_register_commit_seconds_count") == "sipwake_register_commit_seconds_count 1")
    }

    @Test func digestFailuresAreCounted() {
        let metrics = AuthMetrics(factory: factory)
        metrics.failures.increment()
        metrics.challenged.increment()
        #expect(line("sipwake_digest_failures_total") == "sipwake_digest_failures_total 1")
        #expect(line("sipwake_digest_challenges_total") == "sipwake_digest_challenges_total 1")
    }

    @Test func droppedRequestsAreCountedByReason() {
        let metrics = AdmissionMetrics(factory: factory)
        metrics.count(.dropSourceLimit)
        metrics.count(.dropOverload)
        metrics.count(.admit)
        #expect(line(#"sipwake_sip_dropped_total{reason="source-limit"}"#)?.hasSuffix(" 1") == true)
        #expect(line(#"sipwake_sip_dropped_total{reason="overload"}"#)?.hasSuffix(" 1") == true)
        #expect(line(#"sipwake_sip_dropped_total{reason="global-limit"}"#)?.hasSuffix(" 0") ?? true)
    }

    /// A provider name an app made up is labelled `other`: reports cannot grow the series.
    @Test func wakeTimesAreLabelledOnlyWithProvidersSipwakeKnows() {
        let metrics = CallMetrics(factory: factory)
        metrics.wake(provider: "apns", platform: .ios, until: "invite").recordSeconds(1)
        metrics.wake(provider: "made-up-1", platform: nil, until: "invite").recordSeconds(1)
        metrics.wake(provider: "made-up-2", platform: nil, until: "invite").recordSeconds(1)
        let text = registry.emitToString()
        #expect(text.contains(#"sipwake_device_wake_seconds_count{provider="apns",platform="ios",until="invite"} 1"#), "\(text)")
        #expect(text.contains(#"sipwake_device_wake_seconds_count{provider="other",platform="unknown",until="invite"} 2"#), "\(text)")
        #expect(!text.contains("made-up"), "\(text)")
    }

    @Test func callsAreCounted() {
        let metrics = CallMetrics(factory: factory)
        metrics.calls.increment()
        #expect(line("sipwake_calls_total") == "sipwake_calls_total 1")
    }
}
