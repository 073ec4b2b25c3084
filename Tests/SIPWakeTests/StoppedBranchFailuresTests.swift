import Foundation
import Model
import Prometheus
import SIPCore
@testable import SIPWake
import Testing
import TestSupport

/// What the agent reports about stopped branches becomes
/// `sipwake_stopped_branch_failures_total{kind=…}` and warnings; branches
/// forgotten early, which come in floods, get one warning a minute at most,
/// with how many.
@Suite struct StoppedBranchFailuresTests {
    static let t0 = Date(timeIntervalSince1970: 1_700_000_000)
    let registry = PrometheusCollectorRegistry()
    let log = LogRecorder()

    func makeFailures() -> StoppedBranchFailures {
        StoppedBranchFailures(metrics: CallMetrics(factory: PrometheusMetricsFactory(registry: registry)), logger: log.logger)
    }

    /// The value of `sipwake_stopped_branch_failures_total{kind="kind"}`.
    func count(_ kind: String) -> String? {
        let name = #"sipwake_stopped_branch_failures_total{kind="\#(kind)"}"#
        return registry.emitToString().split(separator: "\n").first { $0.hasPrefix(name + " ") }
            .map { String($0.dropFirst(name.count + 1)) }
    }

    var forgottenWarnings: [String] {
        log.entries("stopped branches forgotten before timer c").map { $0.metadata["branches.count"] ?? "-" }
    }

    @Test func aCancelOrAckNotSentIsCountedAndWarnedAtOnce() {
        var failures = makeFailures()
        failures.record(.cancelNotSent(branch: "z9hg4bk-a", status: 180), now: Self.t0)
        failures.record(.ackNotSent(branch: "z9hg4bk-b", status: 486), now: Self.t0)
        failures.record(.ackNotSent(branch: "z9hg4bk-b", status: 486), now: Self.t0)
        #expect(count("cancel_not_sent") == "1")
        #expect(count("ack_not_sent") == "2")
        let cancel = log.entries("stopped branch cancel not sent")
        #expect(cancel.map(\.level) == [.warning])
        #expect(cancel.first?.metadata["sip.branch"] == "z9hg4bk-a")
        #expect(cancel.first?.metadata["sip.status"] == "180")
        #expect(log.entries("stopped branch ack not sent").count == 2)
    }

    @Test func branchesForgottenEarlyAreAllCountedAndWarnedOnceAMinute() {
        var failures = makeFailures()
        failures.record(.forgottenEarly(count: 1), now: Self.t0)
        #expect(forgottenWarnings == ["1"], "the first is told at once")
        for second in 1...59 {
            failures.record(.forgottenEarly(count: 2), now: Self.t0.addingTimeInterval(Double(second)))
            failures.tick(now: Self.t0.addingTimeInterval(Double(second) + 0.5))
        }
        #expect(forgottenWarnings == ["1"], "a flood within the minute is kept untold")
        #expect(count("forgotten_early") == "119", "every one is counted at once")
        failures.tick(now: Self.t0.addingTimeInterval(60))
        #expect(forgottenWarnings == ["1", "118"], "a minute later the tick tells the rest")
        failures.tick(now: Self.t0.addingTimeInterval(200))
        #expect(forgottenWarnings == ["1", "118"], "nothing more to tell")
        failures.record(.forgottenEarly(count: 3), now: Self.t0.addingTimeInterval(201))
        #expect(forgottenWarnings == ["1", "118", "3"], "more than a minute after the last warning: at once")
        #expect(log.entries("stopped branches forgotten before timer c").allSatisfy { $0.level == .warning })
    }

    @Test func aClockThatWentBackDoesNotSilenceTheWarning() {
        var throttle = ThrottledCount(interval: 60)
        #expect(throttle.add(1, now: Self.t0) == 1)
        #expect(throttle.add(1, now: Self.t0.addingTimeInterval(10)) == nil)
        #expect(throttle.add(1, now: Self.t0.addingTimeInterval(-3600)) == 2)
        #expect(throttle.due(now: Self.t0) == nil)
        #expect(throttle.untold == 0)
    }
}
