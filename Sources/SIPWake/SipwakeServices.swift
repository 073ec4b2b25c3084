import API
import Config
import Foundation
import Hummingbird
import Logging
import Metrics
import Ports
import Push
import Registrar
import SQLiteStorage
import StorageSupport
import ServiceLifecycle

/// Everything `sipwake serve` runs, built from the configuration: the SIP
/// service, the HTTP server (reporter endpoints, admin API, health) when
/// `[http] listen` is set, and the stale-tuple purge.
public enum SipwakeServices {
    /// `metrics` is the backend the counters and timers are reported to;
    /// `exposition` (its text) is served at `GET /metrics` behind the admin token.
    /// `pushApps` are the apps pushed to directly (``PushApps/load(_:file:)``).
    /// With `reload` (which reads the configuration again, as at start), a
    /// `SIGHUP` reloads what can change while running (``ConfigReloadService``);
    /// `logLevel` is the level the log handlers share.
    public static func make(config: SipwakeConfig, database: SipwakeDatabase, logger: Logger,
                            metrics: any MetricsFactory, pushApps: [PushAppSettings] = [],
                            exposition: (@Sendable () -> String)? = nil,
                            reload: (@Sendable () throws -> (SipwakeConfig, [PushAppSettings]))? = nil,
                            logLevel: LogLevelControl? = nil)
        throws(APNsSigningKeyError) -> [ServiceGroupConfiguration.ServiceConfiguration]
    {
        try make(config: config, storage: SipwakeStorage(sqlite: database), logger: logger, metrics: metrics,
                 pushApps: pushApps, exposition: exposition, reload: reload, logLevel: logLevel)
    }

    /// The services on `storage`, SQLite or PostgreSQL.
    public static func make(config: SipwakeConfig, storage: SipwakeStorage, logger: Logger,
                            metrics: any MetricsFactory, pushApps: [PushAppSettings] = [],
                            exposition: (@Sendable () -> String)? = nil,
                            reload: (@Sendable () throws -> (SipwakeConfig, [PushAppSettings]))? = nil,
                            logLevel: LogLevelControl? = nil)
        throws(APNsSigningKeyError) -> [ServiceGroupConfiguration.ServiceConfiguration]
    {
        // The group stops services in reverse order: the push client goes
        // last, so the missed-call pushes of calls ended by the shutdown still leave.
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = []
        var push: PushClient?
        var pushSystem: PushSystem?
        if config.push.enabled {
            let system = try PushSystem(
                settings: PushClientSettings(timeout: Double(config.push.timeout),
                                             caFile: config.push.caFile.isEmpty ? nil : config.push.caFile),
                acrobits: config.push.gatewayURL.isEmpty ? nil : AcrobitsSettings(gatewayURL: config.push.gatewayURL),
                apps: pushApps, webhook: WebhookConfig.settings(config.webhook), logger: logger, metrics: metrics)
            services.append(.init(service: system.client))
            services.append(.init(service: system.credentials))
            push = system.client
            pushSystem = system
        }
        // The call path's device tuples in memory; every tuple written in
        // this process updates them before the write returns.
        var stores = storage.stores
        var tupleIndex: DeviceTupleIndex?
        do {
            let index = DeviceTupleIndex(
                head: try storage.tupleChangeHead(logger: logger), logger: logger,
                failures: Counter(label: "sipwake_tuple_failures_total", factory: metrics))
            stores.tuples = IndexedTupleRepository(store: stores.tuples, index: index)
            tupleIndex = index
        } catch {
            Counter(label: "sipwake_tuple_failures_total", factory: metrics).increment()
            logger.warning("device tuples not kept in memory: calls read them from the database",
                           metadata: ["error": "\(error)"])
        }
        let bindingJournal = storage.bindingJournal(
            maxBatch: config.database.groupCommitMaxBatch, logger: logger,
            observe: WriterMetrics(writer: "bindings", factory: metrics).observer)
        // Call records are written off the loop; none are kept with retention 0.
        let callRecords = config.calls.recordRetentionDays > 0
            ? storage.callRecordSink(
                logger: logger, observe: WriterMetrics(writer: "call-records", factory: metrics).observer) : nil
        let control = SIPControl()
        services.append(.init(service: SIPService(
            config: config, stores: stores, bindingJournal: bindingJournal, callRecords: callRecords,
            push: push, pnsDirectory: push == nil ? PNSDirectory(apps: []) : config.pnsDirectory(pushApps: pushApps),
            tupleIndex: tupleIndex, logger: logger, metrics: metrics, control: control)))
        var pushRouting: PushRoutingTable?
        if let listen = config.http.listen {
            var secret = Array(config.auth.secret.utf8)
            if secret.isEmpty { secret = (0..<32).map { _ in UInt8.random(in: .min ... .max) } }
            let settings = APISettings(
                realm: config.auth.effectiveRealm,
                algorithms: config.auth.algorithms.compactMap { DigestAlgorithm(rawValue: $0) },
                adminToken: config.http.adminToken.isEmpty ? nil : config.http.adminToken,
                maxBodySize: config.http.maxBodySize,
                failedLoginsPerMinute: config.http.failedLoginsPerMinute,
                adminFailuresPerMinute: config.http.adminFailuresPerMinute,
                nonceSecret: secret, nonceLifetime: config.auth.nonceLifetime,
                nonceMaxUses: config.auth.nonceMaxUses, pushRouting: config.pushRouting)
            if settings.adminToken == nil {
                logger.notice("admin API is off: set [http] admin_token (or SIPWAKE_HTTP_ADMIN_TOKEN) to enable it")
            }
            pushRouting = settings.pushRoutingTable
            let router = APIRouter.make(stores: stores, settings: settings, logger: logger, metrics: metrics,
                                        exposition: exposition, liveCalls: { await control.liveCalls() })
            let app = Application(
                router: router,
                configuration: .init(address: .hostname(listen.host, port: listen.port), serverName: "sipwake"),
                logger: logger)
            services.append(.init(service: app))
        }
        if let reload {
            services.append(.init(service: ConfigReloadService(
                config: config, load: reload, logLevel: logLevel, push: pushSystem, sip: control,
                pushRouting: pushRouting, logger: logger, metrics: metrics)))
        }
        // A purge may finish at once (retention 0): that must not stop the server.
        let tuples = stores.tuples
        services.append(.init(
            service: RetentionPurgeService(what: "stale tuples", retentionDays: config.tuples.staleAfterDays,
                                           logger: logger, metrics: metrics) { try tuples.purge(notSeenSince: $0) },
            successTerminationBehavior: .ignore))
        let records = stores.callRecords
        services.append(.init(
            service: RetentionPurgeService(what: "old call records", retentionDays: config.calls.recordRetentionDays,
                                           logger: logger, metrics: metrics) { try records.purge(startedBefore: $0) },
            successTerminationBehavior: .ignore))
        return services
    }
}
