import Foundation
import Hummingbird
import Logging
import Metrics
import Model
import Ports

/// Builds the HTTP router: the reporter endpoints, the admin API and health.
public enum APIRouter {
    /// `metrics` receives the counters of failed logins, blocks, Digest
    /// refusals and internal errors; `exposition`, when given, is served at
    /// `GET /metrics` behind the admin token; `liveCalls`, when given, lists
    /// the calls in progress (nil when the SIP server is not running) at
    /// `GET /admin/v1/live-calls`.
    public static func make(stores: Stores, settings: APISettings, logger: Logger, metrics: any MetricsFactory,
                            exposition: (@Sendable () -> String)? = nil,
                            liveCalls: (@Sendable () async -> [CallRecord]?)? = nil,
                            clock: @escaping @Sendable () -> Date = { Date() }) -> Router<APIRequestContext> {
        let counters = APIMetrics(factory: metrics)
        let router = Router(context: APIRequestContext.self)
        router.get("/health") { _, _ in "ok\n" }
        ReporterRoutes(stores: stores, settings: settings, logger: logger, metrics: counters, clock: clock)
            .register(on: router)
        AdminRoutes(stores: stores, settings: settings, logger: logger, metrics: counters, exposition: exposition,
                    liveCalls: liveCalls, clock: clock)
            .register(on: router)
        return router
    }
}
