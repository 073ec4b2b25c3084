import Config
import Push
import Registrar

extension SipwakeConfig {
    /// The apps RFC 8599 phones can name in their REGISTER: every APNs and
    /// FCM app of `[apps.*]` (Acrobits apps are reached through their
    /// reporter only). An APNs app answers to `pn-provider=apns` (`apns.dev`
    /// when it is a sandbox app) with `pn-param` `TEAMID.BUNDLE_ID`; an FCM app
    /// to `pn-provider=fcm` with its service account's project id. Either
    /// also answers to its own `pn_param`. `pushApps` are the loaded apps
    /// (the FCM project ids come from their service accounts).
    public func pnsDirectory(pushApps: [PushAppSettings]) -> PNSDirectory {
        var projects: [String: String] = [:]
        for case .fcm(let settings) in pushApps { projects[settings.appID] = settings.serviceAccount.projectID }
        var directory: [PNSApp] = []
        for app in apps {
            var params: Set<String> = []
            if let own = app.pnParam { params.insert(own) }
            switch app.provider {
            case .acrobits:
                continue
            case .apns:
                if let team = app.teamID, let bundle = app.bundleID { params.insert("\(team).\(bundle)") }
                directory.append(PNSApp(name: app.name, pns: app.sandbox ? "apns.dev" : "apns", params: params,
                                        provider: app.provider.rawValue, appID: app.appID))
            case .fcm:
                if let project = projects[app.appID] { params.insert(project) }
                directory.append(PNSApp(name: app.name, pns: "fcm", params: params, provider: app.provider.rawValue,
                                        appID: app.appID))
            }
        }
        return PNSDirectory(apps: directory)
    }
}
