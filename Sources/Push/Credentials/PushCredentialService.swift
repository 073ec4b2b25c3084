import Foundation
import Logging
import Metrics
import ServiceLifecycle

/// Keeps the credentials of the directly reached apps fresh (APNs provider
/// tokens, FCM access tokens). For each credential it makes one at start,
/// makes the next ahead of its expiry (``PushCredentialMaker/renewalTime(of:)``),
/// and makes one at once when a provider reports it refused
/// (``PushCredentialStore/invalidate(ifToken:)``), though not more than once a
/// minute per credential. A failure is retried after 1 s, then 2, 4… up to 60 s;
/// it is logged at `warning` (`push credential failed`, with `push.app_id`,
/// `push.provider`, `error`; never the key or token) and counted in
/// `sipwake_push_credential_failures_total{provider}`.
///
/// Pushes for an app whose credential is not made yet wait for it (up to the
/// push timeout). The service stops on graceful shutdown or cancellation.
public final class PushCredentialService: Service, Sendable {
    private let credentials: [ManagedPushCredential]
    private let timing: PushCredentialTiming
    private let logger: Logger
    private let factory: any MetricsFactory
    private let now: @Sendable () -> Date
    /// Credentials a reload added, for the running service to keep too.
    private let added: AsyncStream<[ManagedPushCredential]>
    private let adding: AsyncStream<[ManagedPushCredential]>.Continuation

    /// `metrics` is the backend failures are counted in; `now` the clock
    /// credentials are dated by.
    public init(credentials: [ManagedPushCredential], timing: PushCredentialTiming = PushCredentialTiming(),
                logger: Logger, metrics: any MetricsFactory, now: @escaping @Sendable () -> Date = { Date() }) {
        self.credentials = credentials
        self.timing = timing
        self.logger = logger
        self.now = now
        factory = metrics
        (added, adding) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        // The failure counters exist from the start, at zero.
        for provider in Set(credentials.map(\.maker.provider)) {
            _ = Counter(label: "sipwake_push_credential_failures_total", dimensions: [("provider", provider)],
                        factory: metrics)
        }
    }

    public func run() async throws {
        // With nothing to keep (no APNs or FCM app) the service waits for a
        // reload that adds some, or for the shutdown: a service that returned
        // would end the whole service group.
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                for credential in self.credentials {
                    group.addTask { await self.keep(credential) }
                }
                for await batch in self.added {
                    for credential in batch {
                        group.addTask { await self.keep(credential) }
                    }
                }
            }
        }
    }

    /// A reload: stops keeping `retired` (their apps are gone or their keys
    /// changed) and starts keeping `added`. Returns at once.
    public func replace(retiring retired: [ManagedPushCredential], adding added: [ManagedPushCredential]) {
        for credential in retired { credential.store.retire() }
        if !added.isEmpty { adding.yield(added) }
    }

    /// Makes and renews one credential until cancelled.
    private func keep(_ credential: ManagedPushCredential) async {
        let maker = credential.maker
        let metadata: Logger.Metadata = ["push.app_id": "\(maker.appID)", "push.provider": "\(maker.provider)"]
        var failureCount = 0
        // The last renewal a refusal asked for: the first refusal renews at
        // once, however young the refused credential (a provider that calls
        // a token expired will not take it again); the next waits out the
        // gap, so a provider refusing every token cannot make a loop.
        var lastRenewalAfterRefusal: Date?
        var due = now()
        while !Task.isCancelled, !credential.store.isRetired {
            let attemptAt = now()
            if attemptAt >= due {
                do {
                    let made = try await maker.makeCredential(at: attemptAt)
                    credential.store.set(made)
                    failureCount = 0
                    due = maker.renewalTime(of: made)
                    logger.debug("push credential made", metadata: metadata)
                } catch {
                    if Task.isCancelled { return }
                    failureCount += 1
                    Counter(label: "sipwake_push_credential_failures_total",
                            dimensions: [("provider", maker.provider)], factory: factory).increment()
                    var failed = metadata
                    failed["error"] = "\(error)"
                    logger.warning("push credential failed", metadata: failed)
                    due = attemptAt.addingTimeInterval(timing.retryDelay(afterFailures: failureCount))
                }
                continue
            }
            let invalidated = await Self.wait(until: due, orInvalidationOf: credential.store, now: now)
            if invalidated, !Task.isCancelled, !credential.store.isRetired {
                logger.debug("push credential refused", metadata: metadata)
                due = timing.nextAttempt(afterInvalidationAt: now(), lastAttempt: lastRenewalAfterRefusal, scheduled: due)
                lastRenewalAfterRefusal = due
            }
        }
    }

    /// Sleeps until `date` or until `store` is invalidated; true for an invalidation.
    private static func wait(until date: Date, orInvalidationOf store: PushCredentialStore,
                             now: @escaping @Sendable () -> Date) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                let seconds = max(0, date.timeIntervalSince(now()))
                try? await Task.sleep(for: .milliseconds(Int64((seconds * 1000).rounded(.up))))
                return false
            }
            group.addTask {
                await store.waitForInvalidation()
                return true
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }
}
