import Foundation
import Hummingbird
import Logging
import Storage

/// The admin API: tuples and registrations, behind a bearer token.
struct AdminRoutes {
    let database: SipwakeDatabase
    let settings: APISettings
    let logger: Logger
    let clock: @Sendable () -> Date

    func register(on router: Router<BasicRequestContext>) {}
}
