import ArgumentParser
import BuildInfo
import Config
import Glibc
import Logging
import Metrics
import Prometheus
import NIOCore
import SIPCore
import SIPWake
import ServiceLifecycle

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Run the SIP server until SIGTERM or SIGINT.")

    @OptionGroup var options: ConfigOption

    func run() async throws {
        let (config, pushApps) = try options.loadWithPushApps()
        let configFile = try options.absolutePath()
        // One level for every handler, so a reload changes it everywhere.
        let logLevel = LogLevelControl(Logger.Level(rawValue: config.log.level.rawValue) ?? .info)
        LoggingSystem.bootstrap { label in
            config.log.format == .json
                ? JSONLogHandler(label: label, level: logLevel) as any LogHandler
                : TextLogHandler(label: label, level: logLevel)
        }
        let logger = Logger(label: "sipwake")
        // The database: the SQLite file, or the PostgreSQL server and
        // database (host, port, name; never the user's password).
        let database: Logger.Metadata = config.database.url.map { ["database.postgresql": "\($0)"] }
            ?? ["database.path": "\(config.database.path)"]
        logger.info("sipwake starting", metadata: [
            "sipwake.version": "\(SipwakeVersion.description)",
            "config.file": "\(configFile)",
            "push.providers": "\(PushProvidersSummary.describe(config))"].merging(database) { $1 })
        SofiaLogBridge.install(logger: Logger(label: "sipwake.sofia"))
        let storage: SipwakeStorage
        do {
            storage = try SipwakeStorage.open(config.database, logger: logger)
        } catch {
            throw CLIError("cannot open database \(config.database.displayName): \(error)")
        }
        // Counters and timers go to a Prometheus registry; the process-wide
        // bootstrap is for libraries that report to `MetricsSystem` themselves.
        let registry = PrometheusCollectorRegistry()
        var metrics = PrometheusMetricsFactory(registry: registry)
        // A SIP server's times are in microseconds and milliseconds (a late
        // fork, a commit, the loop's lag); pushes and wake-ups in seconds.
        metrics.defaultDurationHistogramBuckets = [
            .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2.5),
            .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
            .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10), .seconds(30),
        ]
        MetricsSystem.bootstrap(metrics)
        let services: [ServiceGroupConfiguration.ServiceConfiguration]
        do {
            let options = self.options
            services = try SipwakeServices.make(config: config, storage: storage, logger: logger, metrics: metrics,
                                                pushApps: pushApps, exposition: { registry.emitToString() },
                                                reload: { try options.loadWithPushApps() }, logLevel: logLevel)
        } catch {
            throw CLIError("cannot start push delivery: \(error.description)")
        }
        let group = ServiceGroup(configuration: .init(
            services: services,
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger))
        do {
            try await group.run()
        } catch let error as IOError where config.http.listen != nil {
            // The SIP side reports its own addresses; socket errors from NIO
            // come from the HTTP listener, which is the one to name.
            try? storage.close()
            throw CLIError("cannot listen on http \(config.http.listen!): \(String(cString: strerror(error.errnoCode)))")
        } catch {
            try? storage.close()
            throw CLIError("\(error)")
        }
        do {
            try storage.close()
        } catch {
            logger.error("database close failed", metadata: ["error": "\(error)"])
        }
        logger.info("sipwake stopped")
    }
}
