import Logging

/// Where the admin routes report a request that failed inside sipwake (a
/// store that threw): a warning and the internal-error counter, then a 500.
struct AdminFailureLog: Sendable {
    let logger: Logger
    let metrics: APIMetrics

    func internalError(_ message: Logger.Message, _ error: any Error) {
        metrics.internalErrors.increment()
        logger.warning(message, metadata: ["error": "\(error)"])
    }
}
