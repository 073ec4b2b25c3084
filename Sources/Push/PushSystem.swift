import Logging
import Metrics
import Ports
import ServiceLifecycle
import Synchronization

/// Everything that sends pushes, built from the configuration: the
/// ``PushClient`` (the Acrobits gateway when configured, each listed app's
/// own APNs or FCM provider, and the customers' call webhooks when any
/// domain has one) and the ``PushCredentialService`` that keeps the
/// apps' provider tokens and access tokens fresh. Both are services for the
/// caller's service group; the client is the ``PushSender`` the call proxy uses.
///
/// Each app's pushes go through its own provider (``PushProviders``), whatever
/// provider its device tuples name; results are counted under `apns` or
/// `fcm` like the gateway's under `acrobits`. The configuration refuses two
/// apps with one app id, so each app id has one provider.
///
/// ``reload(acrobits:apps:webhook:)`` swaps the providers of a running
/// system (a `SIGHUP`). An app whose signing key or service account did not
/// change keeps its credential: APNs refuses provider tokens renewed more
/// often than every 20 minutes.
public final class PushSystem: Sendable {
    public let client: PushClient
    public let credentials: PushCredentialService
    /// The apps' credentials now kept, by app id.
    private let kept: Mutex<[String: KeptPushCredential]>

    /// `metrics` is the backend push results and credential failures are
    /// counted in; `credentialLogger` the credential service's logger (by
    /// default `logger`). Throws when an APNs app's signing key cannot be read.
    public init(settings: PushClientSettings, acrobits: AcrobitsSettings?, apps: [PushAppSettings],
                webhook: WebhookSettings? = nil, logger: Logger, credentialLogger: Logger? = nil, metrics: any MetricsFactory,
                credentialTiming: PushCredentialTiming = PushCredentialTiming()) throws(APNsSigningKeyError) {
        let client = PushClient(settings: settings, providers: PushProviders([]), logger: logger, metrics: metrics)
        let built = try Self.build(acrobits: acrobits, apps: apps, webhook: webhook, keeping: [:], client: client)
        client.replaceProviders(built.providers)
        self.client = client
        kept = Mutex(built.credentials)
        credentials = PushCredentialService(
            credentials: Array(built.credentials.values.map(\.managed)),
            timing: credentialTiming, logger: credentialLogger ?? logger, metrics: metrics)
    }

    /// The services to run, in start order.
    public var services: [any Service] { [client, credentials] }

    /// Replaces the providers with those of the new settings; pushes queued
    /// before keep theirs. New credentials are made for apps that are new or
    /// whose key changed; those of removed or changed apps stop being renewed.
    /// Throws, changing nothing, when an APNs signing key cannot be read.
    @discardableResult
    public func reload(acrobits: AcrobitsSettings?, apps: [PushAppSettings],
                       webhook: WebhookSettings?) throws(APNsSigningKeyError) -> PushReloadSummary {
        let before = kept.withLock { $0 }
        let built = try Self.build(acrobits: acrobits, apps: apps, webhook: webhook, keeping: before, client: client)
        client.replaceProviders(built.providers)
        kept.withLock { $0 = built.credentials }
        let retired = before.filter { built.credentials[$0.key]?.managed.store !== $0.value.managed.store }
        let added = built.credentials.filter { before[$0.key]?.managed.store !== $0.value.managed.store }
        credentials.replace(retiring: Array(retired.values.map(\.managed)), adding: Array(added.values.map(\.managed)))
        return PushReloadSummary(
            newCredentials: added.keys.sorted(),
            keptCredentials: built.credentials.keys.filter { added[$0] == nil }.sorted(),
            removedApps: before.keys.filter { built.credentials[$0] == nil }.sorted())
    }

    /// The providers of `apps`, the gateway and the webhook, and the apps'
    /// credentials: those in `keeping` whose source is unchanged are reused.
    private static func build(acrobits: AcrobitsSettings?, apps: [PushAppSettings], webhook: WebhookSettings?,
                              keeping: [String: KeptPushCredential], client: PushClient)
        throws(APNsSigningKeyError) -> (providers: PushProviders, credentials: [String: KeptPushCredential])
    {
        var byApp: [String: any PushProvider] = [:]
        var credentials: [String: KeptPushCredential] = [:]
        for app in apps {
            let source = PushCredentialSource(app)
            let reused = keeping[app.appID].flatMap { $0.source == source ? $0 : nil }
            let store = reused?.managed.store ?? PushCredentialStore()
            switch app {
            case .apns(let apns):
                byApp[apns.appID] = APNsProvider(settings: apns, credential: store)
                if reused == nil {
                    let maker = APNsTokenMaker(appID: apns.appID, key: try APNsSigningKey(pem: apns.signingKeyPEM),
                                               keyID: apns.keyID, teamID: apns.teamID)
                    credentials[app.appID] = KeptPushCredential(
                        source: source, managed: ManagedPushCredential(maker: maker, store: store))
                }
            case .fcm(let fcm):
                byApp[fcm.appID] = FCMProvider(settings: fcm, credential: store)
                if reused == nil {
                    let maker = FCMTokenMaker(appID: fcm.appID, account: fcm.serviceAccount, http: client)
                    credentials[app.appID] = KeptPushCredential(
                        source: source, managed: ManagedPushCredential(maker: maker, store: store))
                }
            }
            if let reused { credentials[app.appID] = reused }
        }
        var named: [any PushProvider] = acrobits.map { [AcrobitsProvider(settings: $0)] } ?? []
        if let webhook, !webhook.isEmpty { named.append(WebhookProvider(settings: webhook)) }
        return (PushProviders(named, apps: byApp), credentials)
    }
}
