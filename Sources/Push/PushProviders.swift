import Model
import Ports

/// The push providers sipwake sends through. An app the operator listed in
/// `[apps.*]` is reached by that app's own provider (its credentials, its
/// payload format), whatever the device tuple says; a device of any other
/// app by the provider its tuple names (`acrobits`: the Acrobits gateway
/// knows the apps built on its SDK).
public struct PushProviders: Sendable {
    private let byName: [String: any PushProvider]
    private let byAppID: [String: any PushProvider]

    /// `providers` by their names; `apps` by the app ids that choose them.
    public init(_ providers: [any PushProvider], apps: [String: any PushProvider] = [:]) {
        var byName: [String: any PushProvider] = [:]
        for provider in providers { byName[provider.name] = provider }
        self.byName = byName
        byAppID = apps
    }

    /// The provider called `name`, nil when none is configured.
    public func provider(named name: String) -> (any PushProvider)? {
        byName[name]
    }

    /// The provider that reaches the device `message` is for: its app's,
    /// else the one its tuple names, else the gateway (`acrobits`), as
    /// ``PushRouting`` decided when the tuple was reported: a tuple stored
    /// with its calls app's provider (`apns`) may carry an other app that is
    /// not listed, and that app's pushes go through the gateway. Nil when
    /// none of these is configured.
    /// The customer's webhook is only ever its own provider.
    public func provider(for message: PushMessage) -> (any PushProvider)? {
        if message.provider == CallWebhookType.providerName { return byName[message.provider] }
        return byAppID[message.appID] ?? byName[message.provider] ?? byName[DeviceTuple.defaultProvider]
    }

    /// The provider of the listed app `appID`, nil when it is not listed.
    public func provider(forApp appID: String) -> (any PushProvider)? {
        byAppID[appID]
    }

    /// Every provider kind configured, for their counters.
    public var names: [String] { Set(byName.keys).union(byAppID.values.map(\.name)).sorted() }
}
