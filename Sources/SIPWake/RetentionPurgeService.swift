import Foundation
import Logging
import Metrics
import ServiceLifecycle

/// Deletes what is older than a retention period: device tuples not reported
/// for `[tuples] stale_after_days` (apps report at every start and an
/// uninstall sends no removal, so this is how an uninstalled app stops being
/// pushed), and call records older than `[calls] record_retention_days`.
/// Runs at start, then hourly.
public struct RetentionPurgeService: Service, CustomStringConvertible {
    /// What is purged, in the log line: "stale tuples", "old call records".
    private let what: String
    private let retentionDays: Int
    private let purge: @Sendable (Date) throws -> Int
    private let interval: Duration
    private let logger: Logger
    /// Purges that failed (`sipwake_purge_failures_total`, by `what`).
    private let failures: Counter
    private let clock: @Sendable () -> Date

    /// `purge` deletes everything older than the cutoff it is given and
    /// returns how many went.
    public init(what: String, retentionDays: Int, interval: Duration = .seconds(3600), logger: Logger,
                metrics: any MetricsFactory, clock: @escaping @Sendable () -> Date = { Date() },
                purge: @escaping @Sendable (Date) throws -> Int) {
        self.failures = Counter(label: "sipwake_purge_failures_total", dimensions: [("what", what)], factory: metrics)
        self.what = what
        self.retentionDays = retentionDays
        self.purge = purge
        self.interval = interval
        self.logger = logger
        self.clock = clock
    }

    public var description: String { "RetentionPurgeService(\(what))" }

    public func run() async throws {
        guard retentionDays > 0 else { return }
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            purgeOnce()
            // Wakes at once on SIGTERM/SIGINT instead of holding shutdown up.
            try? await cancelWhenGracefulShutdown { [interval] in try await Task.sleep(for: interval) }
        }
    }

    /// One pass; returns how many rows went.
    @discardableResult
    public func purgeOnce() -> Int {
        let cutoff = clock().addingTimeInterval(-Double(retentionDays) * 86400)
        do {
            let purged = try purge(cutoff)
            if purged > 0 {
                logger.info("retention purge done", metadata: ["purge.what": "\(what)", "purge.count": .stringConvertible(purged), "purge.retention_days": .stringConvertible(retentionDays)])
            }
            return purged
        } catch {
            failures.increment()
            logger.warning("retention purge failed", metadata: ["purge.what": "\(what)", "error": "\(error)"])
            return 0
        }
    }
}
