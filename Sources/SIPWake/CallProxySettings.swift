import Config
import Forking
import Foundation
import Model
import Push
import Registrar
import SIPCore

/// What the forking proxy needs from the configuration, resolved once at start.
struct CallProxySettings: Sendable {
    var fork = ForkSettings(contactPushToken: Self.contactPushToken)
    /// Use a new UUID, not the Call-ID, as the pairing id of an INVITE without X-Push-ID.
    var pairingFromUUID = false
    /// Where calls from phones to anything that is not a local user go.
    var outboundProxy: String?
    /// Host written in Record-Route (`sip.public_host`, else the listen address).
    var recordRouteHost = "127.0.0.1"
    /// Port of each transport sipwake listens on, for Record-Route.
    var ports: [SIPTransport: Int] = [:]
    /// Key of the Record-Route tokens.
    var tokenKey = RecordRouteKey(secret: [])
    /// Addresses whose requests are not challenged (the PBX), and whether
    /// digest authentication is on at all.
    var trustedPeers: [TrustedPeer] = []
    var authEnabled = true
    var pushEnabled = false
    var incomingBadge = 0
    var missedBadge = 1
    var sound: String? = "default"
    /// Per listed app id: the end-of-call events its `[apps.NAME]` table
    /// switched off, when any.
    var switchedOff: [String: Set<PushEvent>] = [:]
    /// Per listed app id: its `[apps.NAME]` `sound`, when set ("" = none).
    var appSounds: [String: String] = [:]
    /// The first served domain, for the URIs sipwake writes itself.
    var domain = "localhost"
    /// The customer webhooks by called domain; nil when there are none.
    var webhook: WebhookSettings?
    /// Refused calls recorded a minute at the most (`calls.rejected_records_per_minute`).
    var rejectedRecordsPerMinute = RejectedCallCap.defaultPerMinute

    init(config: SipwakeConfig, tokenSecret: [UInt8], pushEnabled: Bool) {
        fork = ForkSettings(
            wakeWindow: TimeInterval(config.calls.wakeWindow), timeoutStatus: config.calls.timeoutStatus,
            ringbackOnPush: config.calls.ringbackOnPush,
            endNotification: EndNotification(rawValue: config.calls.endNotification) ?? .both,
            missedCallGrace: TimeInterval(config.calls.missedCallGrace), contactPushToken: Self.contactPushToken)
        pairingFromUUID = config.calls.pairingID == "uuid"
        outboundProxy = config.calls.outboundProxy.isEmpty ? nil : config.calls.outboundProxy
        let firstListen = config.sip.listen.first
        if !config.sip.publicHost.isEmpty {
            recordRouteHost = config.sip.publicHost
        } else if let host = firstListen?.host, host != "0.0.0.0", host != "::" {
            recordRouteHost = host
        } else {
            recordRouteHost = config.sip.domains.first ?? "127.0.0.1"
        }
        for address in config.sip.listen {
            guard let transport = SIPTransport(rawValue: address.transport.rawValue), ports[transport] == nil else { continue }
            ports[transport] = address.port
        }
        tokenKey = RecordRouteKey(secret: tokenSecret)
        trustedPeers = config.auth.trustedPeers
        authEnabled = config.auth.enabled
        self.pushEnabled = pushEnabled
        domain = config.sip.domains.first ?? "localhost"
        applyPush(config)
        rejectedRecordsPerMinute = config.calls.rejectedRecordsPerMinute
    }

    /// Takes the push settings of `config`: badges, sounds, the apps'
    /// switched-off notices, the webhooks. At start, and at a reload.
    mutating func applyPush(_ config: SipwakeConfig) {
        incomingBadge = config.push.incomingBadge
        missedBadge = config.push.missedBadge
        sound = config.push.sound.isEmpty ? nil : config.push.sound
        switchedOff = config.switchedOffEndPushes
        appSounds = config.appSounds
        webhook = pushEnabled ? WebhookConfig.settings(config.webhook) : nil
    }

    /// The push token a device's Contact names it by, read by Sofia (the
    /// state machine's way to tell which device tuple answered).
    static let contactPushToken: @Sendable (String) -> String? = { SIPURI(parsing: $0)?.pushDeviceToken }

    /// The account whose webhook a call to a user of `domain` (its
    /// Request-URI host) goes to; nil when that domain has none.
    func webhookAccount(forDomain domain: String?) -> String? {
        guard let webhook, let domain else { return nil }
        let account = domain.lowercased()
        return webhook.endpoint(forAccount: account) == nil ? nil : account
    }

    /// Whether a request from `address` may be relayed wherever it asks
    /// (a trusted peer, or anyone with authentication off).
    func trustsSource(_ address: String) -> Bool {
        !authEnabled || trustedPeers.contains { $0.contains(address) }
    }

    /// Whether an in-dialog request from an untrusted source may go to a next
    /// hop that the request itself names (a Route after sipwake's, or the
    /// Request-URI): only a trusted peer's address or the outbound proxy.
    func mayRelayInDialog(to uri: String) -> Bool {
        guard let host = SIPURI(parsing: uri)?.host else { return false }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if trustedPeers.contains(where: { $0.contains(bare) }) { return true }
        guard let outboundProxy, let outboundHost = SIPURI(parsing: outboundProxy)?.host else { return false }
        return outboundHost.lowercased() == host.lowercased()
    }

    /// The Record-Route entry on one transport, with its token.
    func recordRoute(transport: SIPTransport, token: String) -> String {
        let host = recordRouteHost.contains(":") && !recordRouteHost.hasPrefix("[") ? "[\(recordRouteHost)]" : recordRouteHost
        let port = ports[transport] ?? ports[.udp] ?? 5060
        return "<sip:\(host):\(port);transport=\(transport.rawValue);lr;\(RecordRouteToken.parameter)=\(token)>"
    }
}
