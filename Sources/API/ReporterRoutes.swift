import Foundation
import Hummingbird
import Logging
import Storage

/// The Push Token Reporter and Account Removal Reporter endpoints.
struct ReporterRoutes {
    let database: SipwakeDatabase
    let settings: APISettings
    let logger: Logger
    let clock: @Sendable () -> Date

    func register(on router: Router<BasicRequestContext>) {}
}
