import Foundation
import Synchronization
import Logging
import Metrics
import Model
import Ports
import ServiceLifecycle

/// Sends pushes to their providers over HTTPS with libcurl, on a dedicated
/// `push-http` thread, so that callers (the SIP loop) never wait on the network.
/// Each push goes through the provider its message names: the provider builds
/// the request (on the `push-http` thread) and reads the answer.
///
/// Every result is counted in `sipwake_push_results_total` (by provider and
/// result) and logged: at `debug` when delivered, at `warning` otherwise.
///
/// Pushes given to ``send(_:completion:)`` before ``run()`` wait for it. On
/// graceful shutdown (or cancellation) the client refuses new pushes, lets the
/// pushes in flight finish (each is bounded by ``PushClientSettings/timeout``)
/// and returns.
public final class PushClient: Service, PushSender, PushHTTPPerformer, Sendable {
    private let settings: PushClientSettings
    /// Replaced whole by a reload (``replaceProviders(_:)``); a push keeps
    /// the provider it was queued with.
    private let providerTable: Mutex<PushProviders>
    private let logger: Logger
    private let reporter: PushResultReporter
    private let queue = PushRequestQueue()

    /// `metrics` is the backend the push results are counted in.
    public init(settings: PushClientSettings, providers: PushProviders, logger: Logger, metrics: any MetricsFactory) {
        self.settings = settings
        providerTable = Mutex(providers)
        self.logger = logger
        reporter = PushResultReporter(logger: logger,
                                      counters: PushResultCounters(providers: providers.names, factory: metrics))
    }

    public func run() async throws {
        guard queue.begin() else { throw PushClientError("push client already ran") }
        let started = await withGracefulShutdownHandler {
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                    let thread = Thread { [settings, queue, logger, reporter] in
                        ThreadName.set("push-http")
                        let loop = PushTransferLoop(settings: settings, queue: queue, logger: logger, reporter: reporter)
                        continuation.resume(returning: loop.run())
                    }
                    thread.start()
                }
            } onCancel: {
                self.queue.requestStop()
            }
        } onGracefulShutdown: {
            self.queue.requestStop()
        }
        if !started { throw PushClientError("libcurl could not start") }
    }

    /// The providers pushes go through now.
    public var providers: PushProviders {
        providerTable.withLock { $0 }
    }

    /// A reload: pushes queued from now on go through `providers`; pushes
    /// already queued finish with the provider they were queued with.
    public func replaceProviders(_ providers: PushProviders) {
        reporter.counters.register(providers: providers.names)
        providerTable.withLock { $0 = providers }
    }

    /// Queues `message` for its provider and returns at once. `completion`
    /// is called exactly once: on the `push-http` thread with the provider's
    /// verdict, or right here with `.failed` when neither the message's app
    /// nor its provider name is configured or ("push client stopped") once the client is shutting down.
    public func send(_ message: PushMessage, completion: @escaping @Sendable (PushResult) -> Void) {
        guard let provider = providers.provider(for: message) else {
            reporter.finish(message, provider: message.provider,
                            with: PushResult(kind: .failed, detail: "no push provider \(message.provider)"),
                            warning: "push provider not configured", completion: completion)
            return
        }
        let push = PendingPush(message: message, provider: provider, completion: completion)
        if !queue.enqueue(.push(push)) {
            reporter.finish(message, provider: provider.name, with: PushTransferLoop.stopped, completion: completion)
        }
    }

    /// Sends `request` on the `push-http` thread, with the pushes' timeouts
    /// and TLS settings, and returns its answer: used for the FCM OAuth token
    /// exchange. Before ``run()`` the request waits for it; once the client is
    /// stopping the answer is a setup failure ("push client stopped").
    public func perform(_ request: PushHTTPRequest) async -> PushHTTPAnswer {
        await withCheckedContinuation { continuation in
            let pending = PendingRequest(request: request) { continuation.resume(returning: $0) }
            if !queue.enqueue(.request(pending)) { continuation.resume(returning: PendingWork.stoppedAnswer) }
        }
    }
}
