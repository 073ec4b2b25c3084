import Foundation
import Logging
import ServiceLifecycle

/// Sends pushes to the push gateway over HTTPS with libcurl, on a dedicated
/// `push-http` thread, so that callers (the SIP loop) never wait on the network.
///
/// Pushes given to ``send(_:completion:)`` before ``run()`` wait for it. On
/// graceful shutdown (or cancellation) the client refuses new pushes, lets the
/// pushes in flight finish (each is bounded by ``PushClientSettings/timeout``)
/// and returns.
public final class PushClient: Service, Sendable {
    private let settings: PushClientSettings
    private let logger: Logger
    private let queue = PushRequestQueue()

    public init(settings: PushClientSettings, logger: Logger) {
        self.settings = settings
        self.logger = logger
    }

    public func run() async throws {
        guard queue.begin() else { throw PushClientError("push client already ran") }
        let started = await withGracefulShutdownHandler {
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                    let thread = Thread { [settings, queue, logger] in
                        let loop = PushTransferLoop(settings: settings, queue: queue, logger: logger)
                        continuation.resume(returning: loop.run())
                    }
                    thread.name = "push-http"
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

    /// Queues `notification` for the gateway and returns at once. `completion`
    /// is called exactly once: on the `push-http` thread with the gateway's
    /// verdict, or right here with `.failed` ("push client stopped") once the
    /// client is shutting down.
    public func send(_ notification: PushNotification, completion: @escaping @Sendable (PushResult) -> Void) {
        if !queue.enqueue(PendingPush(notification: notification, completion: completion)) {
            completion(PushTransferLoop.stopped)
        }
    }
}
