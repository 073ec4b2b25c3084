/// Which push provider reaches a device, from the app id its tuple reports:
/// an app the operator listed (`[apps.NAME]`) is pushed through that app's
/// provider; any other app through the gateway provider (`acrobits`: the
/// Acrobits gateway knows the apps built on its SDK), or not at all when no
/// gateway is configured. The reporter and the admin API refuse a tuple no
/// provider can reach, so no device is silently never woken.
public struct PushRouting: Sendable, Equatable {
    /// Listed app ids and the provider of each (`apns`, `fcm`, `acrobits`).
    public var apps: [String: String]
    /// The provider of app ids not listed; nil when there is none.
    public var gatewayProvider: String?

    public init(apps: [String: String] = [:], gatewayProvider: String? = DeviceTuple.defaultProvider) {
        self.apps = apps
        self.gatewayProvider = gatewayProvider
    }

    /// The provider that pushes to `appID`'s devices; nil when none does.
    public func provider(forApp appID: String) -> String? {
        apps[appID] ?? gatewayProvider
    }

    /// Why a tuple's app ids or requested provider cannot be used.
    public struct Refusal: Error, Sendable, Equatable {
        /// `appIDCalls`, `appIDOther` or `provider`.
        public let field: String
        public let reason: String
    }

    /// The provider a tuple with these app ids is stored with: that of its
    /// incoming-call app (else its other app). Every app id given must be
    /// reachable, and a `requested` provider must be that one.
    public func provider(appIDCalls: String?, appIDOther: String?, requested: String?) -> Result<String, Refusal> {
        var chosen: String?
        for (field, appID) in [("appIDCalls", appIDCalls), ("appIDOther", appIDOther)] {
            guard let appID else { continue }
            guard let provider = provider(forApp: appID) else {
                return .failure(Refusal(
                    field: field,
                    reason: "app id '\(appID)' has no push provider on this server: the operator lists it under [apps.*] in sipwake.toml"))
            }
            if chosen == nil { chosen = provider }
        }
        guard let chosen else {
            return .failure(Refusal(field: "appIDCalls", reason: "no app id given"))
        }
        if let requested, requested != chosen {
            return .failure(Refusal(
                field: "provider", reason: "this app is pushed through \(chosen) on this server, not \(requested)"))
        }
        return .success(chosen)
    }
}
