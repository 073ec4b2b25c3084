import Config
import Model

extension SipwakeConfig {
    /// Which provider reaches each app id: the listed apps' own, and the
    /// Acrobits gateway for the others unless `[push] gateway_url` is "".
    public var pushRouting: PushRouting {
        var apps: [String: String] = [:]
        for app in self.apps { apps[app.appID] = app.provider.rawValue }
        return PushRouting(apps: apps, gatewayProvider: push.gatewayURL.isEmpty ? nil : DeviceTuple.defaultProvider)
    }
}
