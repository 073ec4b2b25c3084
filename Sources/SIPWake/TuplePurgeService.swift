import Foundation
import Logging
import ServiceLifecycle
import Storage

/// Deletes device tuples that have not been reported for `staleAfterDays`:
/// apps report at every start and an uninstall sends no removal, so this is
/// how an uninstalled app stops being pushed. Runs at start, then hourly.
public struct TuplePurgeService: Service, CustomStringConvertible {
    private let store: TupleStore
    private let staleAfterDays: Int
    private let interval: Duration
    private let logger: Logger
    private let clock: @Sendable () -> Date

    public init(store: TupleStore, staleAfterDays: Int, interval: Duration = .seconds(3600), logger: Logger,
                clock: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.staleAfterDays = staleAfterDays
        self.interval = interval
        self.logger = logger
        self.clock = clock
    }

    public var description: String { "TuplePurgeService" }

    public func run() async throws {
        guard staleAfterDays > 0 else { return }
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            purgeOnce()
            // Wakes at once on SIGTERM/SIGINT instead of holding shutdown up.
            try? await cancelWhenGracefulShutdown { [interval] in try await Task.sleep(for: interval) }
        }
    }

    /// One pass; returns how many tuples went.
    @discardableResult
    public func purgeOnce() -> Int {
        let cutoff = clock().addingTimeInterval(-Double(staleAfterDays) * 86400)
        do {
            let purged = try store.purge(notSeenSince: cutoff)
            if purged > 0 {
                logger.info("stale tuples purged", metadata: ["count": "\(purged)", "days": "\(staleAfterDays)"])
            }
            return purged
        } catch {
            logger.error("stale tuple purge failed", metadata: ["error": "\(error)"])
            return 0
        }
    }
}
