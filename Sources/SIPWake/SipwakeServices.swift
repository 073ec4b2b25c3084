import API
import Config
import Foundation
import Hummingbird
import Logging
import Registrar
import ServiceLifecycle
import Storage

/// Everything `sipwake serve` runs, built from the configuration: the SIP
/// service, the HTTP server (reporter endpoints, admin API, health) when
/// `[http] listen` is set, and the stale-tuple purge.
public enum SipwakeServices {
    public static func make(config: SipwakeConfig, database: SipwakeDatabase, logger: Logger)
        -> [ServiceGroupConfiguration.ServiceConfiguration]
    {
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(service: SIPService(config: config, database: database, logger: logger)),
        ]
        if let listen = config.http.listen {
            var secret = Array(config.auth.secret.utf8)
            if secret.isEmpty { secret = (0..<32).map { _ in UInt8.random(in: .min ... .max) } }
            let settings = APISettings(
                realm: config.auth.effectiveRealm,
                algorithms: config.auth.algorithms.compactMap { DigestAlgorithm(rawValue: $0) },
                adminToken: config.http.adminToken.isEmpty ? nil : config.http.adminToken,
                maxBodySize: config.http.maxBodySize,
                failedLoginsPerMinute: config.http.failedLoginsPerMinute,
                nonceSecret: secret)
            if settings.adminToken == nil {
                logger.notice("admin API is off: set [http] admin_token (or SIPWAKE_HTTP_ADMIN_TOKEN) to enable it")
            }
            let router = APIRouter.make(database: database, settings: settings, logger: logger)
            let app = Application(
                router: router,
                configuration: .init(address: .hostname(listen.host, port: listen.port), serverName: "sipwake"),
                logger: logger)
            services.append(.init(service: app))
        }
        // The purge may finish at once (stale_after_days = 0): that must not stop the server.
        services.append(.init(
            service: TuplePurgeService(store: TupleStore(database: database),
                                       staleAfterDays: config.tuples.staleAfterDays, logger: logger),
            successTerminationBehavior: .ignore))
        return services
    }
}
