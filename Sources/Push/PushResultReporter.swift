import Foundation
import Logging
import Metrics
import Model

/// Where every push's result goes before its caller hears of it: counted in
/// `sipwake_push_results_total`, and logged, at `debug` when delivered and at
/// `warning` otherwise, so that operators see every push that did not reach
/// its phone.
///
/// While a provider fails with retryable results (its outage), one warning
/// a minute tells how many pushes failed since the last (`push.failures`);
/// every other failure is a warning of its own.
struct PushResultReporter: Sendable {
    private let logger: Logger
    let counters: PushResultCounters
    private let outages = ProviderOutages()

    init(logger: Logger, counters: PushResultCounters) {
        self.logger = logger
        self.counters = counters
    }

    /// Counts and logs `result` of `message`, sent through the provider
    /// called `provider`, then calls `completion` with it. A result other
    /// than `delivered` is logged as `warning` (a constant message).
    /// `took`: from the hand-off to the answer, for a push that was sent.
    func finish(_ message: PushMessage, provider: String, with result: PushResult, took: Duration? = nil,
                warning: Logger.Message = "push failed", completion: @Sendable (PushResult) -> Void) {
        counters.count(provider: provider, kind: result.kind)
        if let took { counters.time(provider: provider, took) }
        // Tokens are shortened in logs: a token lets anyone push to that phone.
        let metadata: Logger.Metadata = [
            "push.provider": "\(provider)",
            "push.event": "\(message.event.rawValue)",
            "push.tuple_id": .stringConvertible(message.tupleID),
            "call.pairing_id": "\(message.pairingID)",
            "push.token": "\(message.shortToken)",
            "push.result": "\(result.name)",
            "push.status": "\(result.httpStatus.map(String.init) ?? "-")",
            "push.detail": "\(result.detail ?? "")",
        ]
        if result.kind == .delivered {
            logger.debug("push answered", metadata: metadata)
        } else if result.kind == .retryable {
            guard let failures = outages.add(provider, now: Date()) else { return completion(result) }
            var told = metadata
            told["push.failures"] = .stringConvertible(failures)
            logger.warning(warning, metadata: told)
        } else {
            logger.warning(warning, metadata: metadata)
        }
        completion(result)
    }
}
