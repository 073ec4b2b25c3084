/// One app reached directly through APNs (`[apps.*]` with `provider = "apns"`
/// in sipwake.toml).
public struct APNsSettings: Sendable {
    /// The app id its devices report in their push tuples: their pushes go
    /// through this app's settings.
    public var appID: String
    /// The text of the team's `.p8` token signing key.
    public var signingKeyPEM: String
    /// The signing key's id (10 characters, shown beside the key in Apple's developer account).
    public var keyID: String
    /// The developer team id (10 characters).
    public var teamID: String
    /// The app's bundle id: VoIP pushes go to the topic `<bundleID>.voip`,
    /// missed-call alerts to `<bundleID>`.
    public var bundleID: String
    /// Whether the app's tokens come from a development build (Apple's sandbox service).
    public var sandbox: Bool
    /// Base URL instead of Apple's (a lab's push sink); nil for
    /// `https://api.push.apple.com`, or `https://api.sandbox.push.apple.com`
    /// with ``sandbox``.
    public var url: String?
    /// What the app expects in its pushes.
    public var format: PushPayloadFormat
    /// The alerts of missed calls and answers elsewhere.
    public var notices: EndOfCallNotices

    public init(appID: String, signingKeyPEM: String, keyID: String, teamID: String, bundleID: String,
                sandbox: Bool = false, url: String? = nil, format: PushPayloadFormat = .acrobits,
                notices: EndOfCallNotices = .standard) {
        self.appID = appID
        self.signingKeyPEM = signingKeyPEM
        self.keyID = keyID
        self.teamID = teamID
        self.bundleID = bundleID
        self.sandbox = sandbox
        self.url = url
        self.format = format
        self.notices = notices
    }

    /// The base URL pushes go to.
    public var baseURL: String {
        if let url { return url.hasSuffix("/") ? String(url.dropLast()) : url }
        return sandbox ? "https://api.sandbox.push.apple.com" : "https://api.push.apple.com"
    }
}

extension APNsSettings: CustomStringConvertible {
    /// The settings without the signing key, for logs and error messages.
    public var description: String {
        "APNsSettings(app_id: \(appID), key_id: \(keyID), team_id: \(teamID), bundle_id: \(bundleID), "
            + "sandbox: \(sandbox), url: \(url ?? baseURL), format: \(format.name))"
    }
}
