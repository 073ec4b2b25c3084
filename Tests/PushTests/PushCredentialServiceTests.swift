import Foundation
import Logging
import Metrics
import Prometheus
import Push
import TestSupport
import Testing

/// The credential service with a scripted maker, in real (short) time.
@Suite struct PushCredentialServiceTests {
    let timing = PushCredentialTiming(minimumRenewalGap: 0.4, firstRetryDelay: 0.05, maximumRetryDelay: 0.2)

    /// Runs `body` while a service keeps `maker`'s credential in a store.
    func withService(_ maker: ScriptedCredentialMaker, timing: PushCredentialTiming? = nil,
                     logger: Logger = PushFixtures.logger, metrics: any MetricsFactory = NOOPMetricsHandler.instance,
                     _ body: (PushCredentialStore) async throws -> Void) async throws {
        let store = PushCredentialStore()
        let service = PushCredentialService(credentials: [ManagedPushCredential(maker: maker, store: store)],
                                            timing: timing ?? self.timing, logger: logger, metrics: metrics)
        let running = RunningService.start(service, logger: PushFixtures.logger)
        do {
            try await body(store)
        } catch {
            try? await running.stop()
            throw error
        }
        try await running.stop()
    }

    /// Waits for `condition`, polling every 10 ms, `seconds` worth of polls.
    /// Counted in polls, not by the clock: the whole suite runs at once on
    /// two cores, and while other tests hold the threads neither the
    /// service's timers nor this loop run, so a deadline could pass before
    /// the service had its turn.
    func eventually(_ seconds: Double = 10, _ condition: () -> Bool) async -> Bool {
        for _ in 0..<Int(seconds * 100) {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    @Test func aCredentialIsMadeAtStartAndRenewedAheadOfTime() async throws {
        let maker = ScriptedCredentialMaker(renewAfter: 0.15)
        try await withService(maker) { store in
            #expect(await eventually { store.current(at: Date()) != nil })
            // Renewed ahead of time, again and again (polling could miss one
            // token's short life under load, so count the renewals).
            #expect(await eventually { maker.calls.count >= 3 })
            #expect(store.current(at: Date())?.hasPrefix("token-") == true)
            #expect(store.current(at: Date()) != "token-1")
        }
    }

    /// With a one-minute gap, far longer than any test run: the first
    /// refusal renews although the credential was just made; the second,
    /// within the gap, waits (no third credential while the test runs).
    @Test func aRefusalRenewsAtOnceButNotTwiceWithinTheGap() async throws {
        let maker = ScriptedCredentialMaker()
        let timing = PushCredentialTiming(minimumRenewalGap: 60, firstRetryDelay: 0.05, maximumRetryDelay: 0.2)
        try await withService(maker, timing: timing) { store in
            #expect(await eventually { store.current(at: Date()) == "token-1" })
            store.invalidate(ifToken: "token-1")
            #expect(await eventually { store.current(at: Date()) == "token-2" })
            store.invalidate(ifToken: "token-2")
            #expect(!(await eventually(1) { maker.calls.count >= 3 }))
            #expect(maker.calls.count == 2)
            #expect(store.current(at: Date()) == nil, "the refused credential is not used again")
        }
    }

    @Test func failuresAreRetriedCountedAndLoggedWithoutSecrets() async throws {
        let maker = ScriptedCredentialMaker(failures: 3)
        let registry = PrometheusCollectorRegistry()
        let recorder = LogRecorder()
        try await withService(maker, logger: recorder.logger, metrics: PrometheusMetricsFactory(registry: registry)) { store in
            #expect(await eventually { store.current(at: Date()) == "token-1" })
        }
        let calls = maker.calls
        #expect(calls.count == 4)
        // 0.05, 0.1, 0.2 s apart.
        #expect(calls[1].timeIntervalSince(calls[0]) >= 0.04)
        #expect(calls[3].timeIntervalSince(calls[2]) >= 0.18)
        #expect(registry.emitToString().contains(#"sipwake_push_credential_failures_total{provider="lab"} 3"#))
        let warnings = recorder.entries("push credential failed")
        #expect(warnings.count == 3)
        #expect(warnings.first?.metadata == ["push.app_id": "com.example.lab", "push.provider": "lab", "error": "lab refused"])
        #expect(!recorder.recordedWithMetadata.joined().contains("token-1"))
    }

    /// With no APNs or FCM app there is nothing to keep, and the service
    /// still runs until the shutdown: one that returned would end the
    /// server's whole service group (`sipwake serve` on the gateway alone).
    @Test func withNoCredentialTheServiceRunsUntilTheShutdown() async throws {
        let service = PushCredentialService(credentials: [], timing: timing, logger: PushFixtures.logger,
                                            metrics: NOOPMetricsHandler.instance)
        let running = RunningService.start(service, logger: PushFixtures.logger)
        try await Task.sleep(for: .milliseconds(200))
        try await running.stop()
    }

    @Test func theServiceStopsOnShutdownWhileWaiting() async throws {
        let maker = ScriptedCredentialMaker(failures: 1000)
        try await withService(maker) { _ in
            #expect(await eventually { maker.calls.count >= 2 })
        }
    }
}
