import Logging
import Metrics
import Ports
import ServiceLifecycle

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
public struct PushSystem: Sendable {
    public let client: PushClient
    public let credentials: PushCredentialService

    /// `metrics` is the backend push results and credential failures are
    /// counted in; `credentialLogger` the credential service's logger (by
    /// default `logger`). Throws when an APNs app's signing key cannot be read.
    public init(settings: PushClientSettings, acrobits: AcrobitsSettings?, apps: [PushAppSettings],
                webhook: WebhookSettings? = nil, logger: Logger, credentialLogger: Logger? = nil, metrics: any MetricsFactory,
                credentialTiming: PushCredentialTiming = PushCredentialTiming()) throws(APNsSigningKeyError) {
        var byApp: [String: any PushProvider] = [:]
        var makers: [(store: PushCredentialStore, make: (PushClient) -> any PushCredentialMaker)] = []
        for app in apps {
            let store = PushCredentialStore()
            switch app {
            case .apns(let apns):
                byApp[apns.appID] = APNsProvider(settings: apns, credential: store)
                let maker = APNsTokenMaker(appID: apns.appID, key: try APNsSigningKey(pem: apns.signingKeyPEM),
                                           keyID: apns.keyID, teamID: apns.teamID)
                makers.append((store, { _ in maker }))
            case .fcm(let fcm):
                byApp[fcm.appID] = FCMProvider(settings: fcm, credential: store)
                makers.append((store, { FCMTokenMaker(appID: fcm.appID, account: fcm.serviceAccount, http: $0) }))
            }
        }
        var named: [any PushProvider] = acrobits.map { [AcrobitsProvider(settings: $0)] } ?? []
        if let webhook, !webhook.isEmpty { named.append(WebhookProvider(settings: webhook)) }
        let client = PushClient(settings: settings, providers: PushProviders(named, apps: byApp),
                                logger: logger, metrics: metrics)
        self.client = client
        credentials = PushCredentialService(
            credentials: makers.map { ManagedPushCredential(maker: $0.make(client), store: $0.store) },
            timing: credentialTiming, logger: credentialLogger ?? logger, metrics: metrics)
    }

    /// The services to run, in start order.
    public var services: [any Service] { [client, credentials] }
}
