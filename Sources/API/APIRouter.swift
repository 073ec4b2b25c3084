import Foundation
import Hummingbird
import Logging
import Storage

/// Builds the HTTP router: the reporter endpoints, the admin API and health.
public enum APIRouter {
    public static func make(database: SipwakeDatabase, settings: APISettings, logger: Logger,
                            clock: @escaping @Sendable () -> Date = { Date() }) -> Router<APIRequestContext> {
        let router = Router(context: APIRequestContext.self)
        router.get("/health") { _, _ in "ok\n" }
        ReporterRoutes(database: database, settings: settings, logger: logger, clock: clock).register(on: router)
        AdminRoutes(database: database, settings: settings, logger: logger, clock: clock).register(on: router)
        return router
    }
}
