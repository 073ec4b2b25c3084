import Config
import Forking
import Foundation
import Logging
import Metrics
import Model
import Ports
import Push
import ServiceLifecycle

/// `sipwake push test USER`: one push of the chosen event to every device
/// of a user, through the same providers, credentials and payloads as a real
/// call, and what each provider answered. A tuple is deleted only when its
/// provider says the token is gone, as a call would.
public struct PushTestRun: Sendable {
    /// What one device's push came to.
    public struct Outcome: Sendable {
        public let tuple: DeviceTuple
        /// The app and provider the push went to; nil when the tuple has no token for the event.
        public let appID: String?
        public let provider: String?
        public let result: PushResult
        /// Whether the tuple was deleted because its token is gone.
        public let deleted: Bool
    }

    public let config: SipwakeConfig
    public let pushApps: [PushAppSettings]
    public let stores: Stores
    public let logger: Logger

    /// Why an app's credential (APNs provider token, FCM access token)
    /// could not be made is logged with `credentialLogger`: a push that
    /// waited for it in vain only says there was none.
    public let credentialLogger: Logger

    public init(config: SipwakeConfig, pushApps: [PushAppSettings], stores: Stores, logger: Logger,
                credentialLogger: Logger? = nil) {
        self.config = config
        self.pushApps = pushApps
        self.stores = stores
        self.logger = logger
        self.credentialLogger = credentialLogger ?? logger
    }

    /// Pushes `event` to every device of `user` and waits for every answer
    /// (each bounded by `[push] timeout`, plus the time to make credentials).
    public func run(user: String, event: PushEvent) async throws -> [Outcome] {
        let name = user.lowercased()
        guard try stores.users.find(username: name) != nil else { throw StorageError.userNotFound(name) }
        let tuples = try stores.tuples.list(username: name, limit: 10_000, offset: 0)
        guard !tuples.isEmpty else { return [] }
        let system = try PushSystem(
            settings: PushClientSettings(timeout: Double(config.push.timeout),
                                         caFile: config.push.caFile.isEmpty ? nil : config.push.caFile),
            acrobits: config.push.gatewayURL.isEmpty ? nil : AcrobitsSettings(gatewayURL: config.push.gatewayURL),
            apps: pushApps, logger: logger, credentialLogger: credentialLogger, metrics: NOOPMetricsHandler.instance)
        let group = ServiceGroup(configuration: .init(services: system.services.map { .init(service: $0) },
                                                      logger: logger))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var outcomes: [Outcome] = []
            for tuple in tuples { outcomes.append(try await push(event, to: tuple, via: system.client)) }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
            return outcomes
        }
    }

    private func push(_ event: PushEvent, to tuple: DeviceTuple, via client: PushClient) async throws -> Outcome {
        let target = PushTarget(tupleID: tuple.id, provider: tuple.provider, selector: tuple.selector,
                                callsAppID: tuple.appIDCalls, callsToken: tuple.tokenCalls,
                                otherAppID: tuple.appIDOther, otherToken: tuple.tokenOther)
        guard let address = target.address(for: event) else {
            return Outcome(tuple: tuple, appID: nil, provider: nil,
                           result: .failed(status: nil, detail: "no token for this event"), deleted: false)
        }
        if config.switchedOffEndPushes[address.appID]?.contains(event) == true {
            let key = event == .missed ? "missed_notification" : "answered_elsewhere_notification"
            return Outcome(tuple: tuple, appID: address.appID, provider: nil,
                           result: .failed(status: nil, detail: "switched off for this app (\(key) = false)"),
                           deleted: false)
        }
        let now = Date()
        let domain = config.sip.domains.first ?? "sipwake.invalid"
        let incoming = event == .incomingCall
        let message = PushMessage(
            provider: tuple.provider, event: event, tupleID: tuple.id, appID: address.appID,
            deviceToken: address.token, selector: tuple.selector, pairingID: "push-test-\(UUID().uuidString.lowercased())",
            callerDisplayName: "sipwake push test", callerUser: "sipwake", callerDomain: domain,
            media: incoming ? "audio" : nil, badge: incoming ? config.push.incomingBadge : config.push.missedBadge,
            sound: config.pushSound(forApp: address.appID), sentAt: now,
            expiresAt: incoming ? now.addingTimeInterval(Double(config.calls.wakeWindow)) : nil,
            callee: tuple.username, callerURI: "sip:sipwake@\(domain)", callStartedAt: now)
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<PushResult, Never>) in
            client.send(message) { continuation.resume(returning: $0) }
        }
        let provider = PushRouting(apps: Dictionary(config.apps.map { ($0.appID, $0.provider.rawValue) },
                                                    uniquingKeysWith: { $1 }),
                                   gatewayProvider: tuple.provider).provider(forApp: address.appID)
        var deleted = false
        if result.kind == .tokenGone { deleted = try stores.tuples.delete(id: tuple.id) }
        if !deleted {
            try? stores.tuples.recordPushResult(id: tuple.id, sentAt: now, at: Date(), status: result.httpStatus,
                                                result: result.name)
        }
        return Outcome(tuple: tuple, appID: address.appID, provider: provider, result: result, deleted: deleted)
    }
}
