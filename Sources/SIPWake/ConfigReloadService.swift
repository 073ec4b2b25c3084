import API
import Config
import Crypto
import Foundation
import Logging
import Metrics
import Push
import ServiceLifecycle
import UnixSignals
import Synchronization

/// Reloads the configuration on `SIGHUP` without dropping a call or a
/// registration. What can change in a running server changes at once:
///
/// | key | applied to |
/// |---|---|
/// | `log.level` | every logger |
/// | `push.gateway_url`, `[apps.*]` and their key files, `[webhook]` | pushes queued from now on; an app whose key is unchanged keeps its credential |
/// | `push.incoming_badge`, `push.missed_badge`, `push.sound` | pushes sent from now on, in pending calls too |
///
/// Anything else that changed (listen addresses, the database, the realm,
/// the TLS certificate files…) is reported in one warning, `config change
/// needs a restart`, with the keys. The TLS certificate and key are read
/// once by Sofia-SIP 1.12, which cannot swap a listener's certificate: a
/// new certificate is checked at reload and served after a restart.
///
/// A configuration that does not load (a syntax error, a missing key file)
/// changes nothing: it is logged at `warning` with the loader's message,
/// and the server runs on with what it had. Every reload is counted in
/// `sipwake_config_reloads_total{result}`.
public final class ConfigReloadService: Service, Sendable {
    /// Keys a running server takes at once; `apps.` and `webhook.` cover
    /// every key of those tables.
    static let reloadableKeys: Set<String> = [
        "log.level", "push.gateway_url", "push.incoming_badge", "push.missed_badge", "push.sound",
    ]
    static let reloadablePrefixes = ["apps.", "webhook."]

    private struct State {
        /// The configuration the server started with: what restart-only
        /// keys are compared with.
        let started: SipwakeConfig
        /// The configuration last applied.
        var current: SipwakeConfig
    }

    private let state: Mutex<State>
    private let load: @Sendable () throws -> (SipwakeConfig, [PushAppSettings])
    private let logLevel: LogLevelControl?
    private let push: PushSystem?
    private let sip: SIPControl?
    private let pushRouting: PushRoutingTable?
    private let tlsFingerprint: String?
    private let logger: Logger
    private let succeeded: Counter
    private let failed: Counter

    /// `config` is the configuration the server runs; `load` reads the file
    /// and the environment again, as at start. `push` is the running push
    /// system (nil when pushes are off), `sip` the running SIP server,
    /// `pushRouting` the HTTP side's routing table (nil without HTTP).
    public init(config: SipwakeConfig, load: @escaping @Sendable () throws -> (SipwakeConfig, [PushAppSettings]),
                logLevel: LogLevelControl?, push: PushSystem?, sip: SIPControl?, pushRouting: PushRoutingTable?,
                logger: Logger, metrics: any MetricsFactory) {
        state = Mutex(State(started: config, current: config))
        self.load = load
        self.logLevel = logLevel
        self.push = push
        self.sip = sip
        self.pushRouting = pushRouting
        tlsFingerprint = Self.fingerprint(config.tls)
        self.logger = logger
        succeeded = Counter(label: "sipwake_config_reloads_total", dimensions: [("result", "ok")], factory: metrics)
        failed = Counter(label: "sipwake_config_reloads_total", dimensions: [("result", "failed")], factory: metrics)
    }

    public func run() async throws {
        for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
            await reload()
        }
    }

    /// Reads the configuration again and applies what can change now.
    @discardableResult
    public func reload() async -> ConfigReload {
        logger.info("config reload requested")
        let config: SipwakeConfig
        let apps: [PushAppSettings]
        do {
            (config, apps) = try load()
        } catch {
            return refuse("\(error)")
        }
        let (started, current) = state.withLock { ($0.started, $0.current) }
        var report = ConfigReload()
        report.needRestart = ConfigChanges.keys(from: started, to: config).filter { !Self.isReloadable($0) }
        if Self.fingerprint(config.tls) != tlsFingerprint, !report.needRestart.contains("tls.certificate") {
            report.needRestart.append("tls.certificate")
            report.needRestart.sort()
        }
        let changed = ConfigChanges.keys(from: current, to: config).filter(Self.isReloadable)
        if let push {
            do {
                let summary = try push.reload(
                    acrobits: config.push.gatewayURL.isEmpty ? nil : AcrobitsSettings(gatewayURL: config.push.gatewayURL),
                    apps: apps, webhook: WebhookConfig.settings(config.webhook))
                report.newCredentials = summary.newCredentials
            } catch {
                return refuse(error.description)
            }
            let directory = config.pnsDirectory(pushApps: apps)
            await sip?.reloadPush(config: config, pnsDirectory: directory)
            pushRouting?.current = config.pushRouting
            report.applied = changed
        } else {
            // Pushes were off at start: their settings wait for a restart.
            report.applied = changed.filter { $0 == "log.level" }
            report.needRestart = Array(Set(report.needRestart + changed.filter { $0 != "log.level" })).sorted()
        }
        if let logLevel, let level = Logger.Level(rawValue: config.log.level.rawValue) {
            logLevel.level = level
        }
        state.withLock { $0.current = config }
        succeeded.increment()
        logger.info("config reloaded", metadata: [
            "config.applied": "\(report.applied.isEmpty ? "-" : report.applied.joined(separator: ","))",
            "push.new_credentials": "\(report.newCredentials.isEmpty ? "-" : report.newCredentials.joined(separator: ","))",
        ])
        if !report.needRestart.isEmpty {
            logger.warning("config change needs a restart",
                           metadata: ["config.keys": "\(report.needRestart.joined(separator: ","))"])
        }
        return report
    }

    private func refuse(_ reason: String) -> ConfigReload {
        failed.increment()
        logger.warning("config reload failed: running on the previous config", metadata: ["error": "\(reason)"])
        var report = ConfigReload()
        report.failure = reason
        return report
    }

    static func isReloadable(_ key: String) -> Bool {
        reloadableKeys.contains(key) || reloadablePrefixes.contains { key.hasPrefix($0) }
    }

    /// The SHA-256 of the TLS certificate and key files as they are now;
    /// nil without TLS or when they cannot be read.
    private static func fingerprint(_ tls: TLSSection) -> String? {
        guard !tls.certificate.isEmpty,
              let certificate = FileManager.default.contents(atPath: tls.certificate),
              let key = FileManager.default.contents(atPath: tls.key) else { return nil }
        var hash = SHA256()
        hash.update(data: certificate)
        hash.update(data: key)
        return hash.finalize().map { String(format: "%02x", $0) }.joined()
    }
}

extension ConfigReloadService: CustomStringConvertible {
    /// Keeps the configuration (and its secrets) out of lifecycle logs.
    public var description: String { "ConfigReloadService" }
}
