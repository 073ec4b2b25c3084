import Foundation
import Hummingbird
import Logging
import Ports

/// Builds the HTTP router: the reporter endpoints, the admin API and health.
public enum APIRouter {
    public static func make(stores: Stores, settings: APISettings, logger: Logger,
                            clock: @escaping @Sendable () -> Date = { Date() }) -> Router<APIRequestContext> {
        let router = Router(context: APIRequestContext.self)
        router.get("/health") { _, _ in "ok\n" }
        ReporterRoutes(stores: stores, settings: settings, logger: logger, clock: clock).register(on: router)
        AdminRoutes(stores: stores, settings: settings, logger: logger, clock: clock).register(on: router)
        return router
    }
}
