import Foundation
import Logging
import Metrics
import Model
import Prometheus
import Push
import PushSink
import TestSupport
import Testing

/// Every push result is counted in `sipwake_push_results_total` and every
/// one but `delivered` is a warning an operator can read, over real HTTP to
/// a PushSink.
@Suite struct PushResultReportingTests {
    let registry = PrometheusCollectorRegistry()
    var factory: PrometheusMetricsFactory { PrometheusMetricsFactory(registry: registry) }

    /// The value of `sipwake_push_results_total` for `provider` and `result`; nil when it has none.
    func count(_ provider: String, _ result: String) -> String? {
        let name = #"sipwake_push_results_total{provider="\#(provider)",result="\#(result)"}"#
        return registry.emitToString().split(separator: "\n")
            .first { $0.hasPrefix(name + " ") }
            .map { String($0.dropFirst(name.count + 1)) }
    }

    /// A sink that answers `ok`, `gone`, 503 and 400 by token.
    static let sink = PushSinkSettings(port: 0, rules: ["gone-token": .gone, "busy-token": .fail(status: 503),
                                                         "bad-token": .fail(status: 400)])

    /// One push per answer of ``sink``, then one after the client stopped.
    func sendOneOfEach(logger: Logger) async throws -> [PushResultKind] {
        var kinds: [PushResultKind] = []
        var stoppedClient: PushClient?
        try await PushFixtures.withSinkAndClient(sink: Self.sink, clientLogger: logger, metrics: factory) { _, client, _ in
            for (token, id) in [("ok-token", "call-ok"), ("gone-token", "call-gone"), ("busy-token", "call-busy"),
                                ("bad-token", "call-bad")] {
                kinds.append(await PushFixtures.send(PushFixtures.incomingCall(token: token, id: id), with: client).kind)
            }
            stoppedClient = client
        }
        let client = try #require(stoppedClient)
        kinds.append(await PushFixtures.send(PushFixtures.incomingCall(token: "late-token", id: "call-late"), with: client).kind)
        return kinds
    }

    @Test func everyResultIsCountedByProviderAndResult() async throws {
        let kinds = try await sendOneOfEach(logger: PushFixtures.logger)
        #expect(kinds == [.delivered, .tokenGone, .retryable, .failed, .failed])
        #expect(count("acrobits", "delivered") == "1")
        #expect(count("acrobits", "token-gone") == "1")
        #expect(count("acrobits", "retryable") == "1")
        // The 400, and the push sent after the client stopped.
        #expect(count("acrobits", "failed") == "2")
        // Each push that went out is timed to its answer; the one never sent is not.
        let text = registry.emitToString()
        #expect(text.contains(#"sipwake_push_seconds_count{provider="acrobits"} 4"#), "\(text)")
    }

    @Test func everyResultButDeliveredIsAWarningWithItsPushAndCall() async throws {
        let log = LogRecorder()
        _ = try await sendOneOfEach(logger: log.logger)

        let answered = log.entries("push answered")
        #expect(answered.map(\.level) == [.debug])
        #expect(answered.first?.metadata["call.pairing_id"] == "call-ok")

        let warnings = log.all.filter { $0.level >= .warning }
        #expect(warnings.map(\.message) == ["push failed", "push failed", "push failed", "push failed"])
        #expect(warnings.map { $0.metadata["call.pairing_id"] } == ["call-gone", "call-busy", "call-bad", "call-late"])
        #expect(warnings.map { $0.metadata["push.result"] } == ["token-gone", "retryable", "failed", "failed"])
        #expect(warnings.map { $0.metadata["push.status"] } == ["404", "503", "400", "-"])
        #expect(warnings.map { $0.metadata["push.token"] } == ["gone-tok…", "busy-tok…", "bad-toke…", "late-tok…"])
        #expect(warnings.last?.metadata["push.detail"] == "push client stopped")
        for warning in warnings {
            #expect(warning.metadata["push.provider"] == "acrobits")
            #expect(warning.metadata["push.event"] == "incoming-call")
            #expect(warning.metadata["push.detail"]?.isEmpty == false)
        }
    }

    /// A gateway that answers 503 to every push is one warning, not one per
    /// push; every push is still counted.
    @Test func anOutageIsOneWarningAMinuteWithItsCount() async throws {
        let log = LogRecorder()
        try await PushFixtures.withSinkAndClient(sink: Self.sink, clientLogger: log.logger, metrics: factory) { _, client, _ in
            for index in 0..<5 {
                let result = await PushFixtures.send(PushFixtures.incomingCall(token: "busy-token", id: "call-\(index)"), with: client)
                #expect(result.kind == .retryable)
            }
            // A refused token during the outage is still told on its own.
            #expect(await PushFixtures.send(PushFixtures.incomingCall(token: "bad-token", id: "call-bad"), with: client).kind == .failed)
        }
        #expect(count("acrobits", "retryable") == "5")
        let warnings = log.all.filter { $0.level >= .warning }
        #expect(warnings.map { $0.metadata["call.pairing_id"] } == ["call-0", "call-bad"], "\(log.recordedWithMetadata)")
        #expect(warnings.first?.metadata["push.failures"] == "1")
        #expect(warnings.first?.metadata["push.status"] == "503")
        #expect(warnings.last?.metadata["push.failures"] == nil)
    }

    @Test func aPushForAProviderNotConfiguredIsAWarningAndCounted() {
        let log = LogRecorder()
        let client = PushClient(settings: PushClientSettings(), providers: PushProviders([]), logger: log.logger,
                                metrics: factory)
        var message = PushFixtures.incomingCall()
        message.provider = "fcm"
        let tally = ResultTally()
        client.send(message) { tally.add($0, for: "fcm") }

        #expect(tally.single("fcm") == PushResult(kind: .failed, detail: "no push provider fcm"))
        let warning = log.entries("push provider not configured").first
        #expect(warning?.level == .warning)
        #expect(warning?.metadata["push.provider"] == "fcm")
        #expect(warning?.metadata["push.tuple_id"] == "7")
        #expect(warning?.metadata["push.detail"] == "no push provider fcm")
        #expect(log.all.count == 1)
        #expect(count("fcm", "failed") == "1")
    }
}
