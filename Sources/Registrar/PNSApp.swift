/// One app whose phones may name their push service in the REGISTER (RFC
/// 8599): which `pn-provider` and `pn-param` values reach it, and which of
/// sipwake's push providers and app ids its devices' pushes then use.
public struct PNSApp: Sendable, Equatable {
    /// `NAME` of `[apps.NAME]`, for logs.
    public var name: String
    /// The `pn-provider` value: `apns` (`apns.dev` for a sandbox app) or `fcm`.
    public var pns: String
    /// The `pn-param` values of this app, as ``PNSDirectory/normalizedParam(_:pns:)`` gives them.
    public var params: Set<String>
    /// The push provider that reaches its devices (`apns`, `fcm`).
    public var provider: String
    /// The app id its device tuples get, which picks this app's credentials.
    public var appID: String

    public init(name: String, pns: String, params: Set<String>, provider: String, appID: String) {
        self.name = name
        self.pns = pns.lowercased()
        self.params = Set(params.map { PNSDirectory.normalizedParam($0, pns: pns) })
        self.provider = provider
        self.appID = appID
    }
}
