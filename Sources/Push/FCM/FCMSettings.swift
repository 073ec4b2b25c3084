/// One app reached directly through Firebase Cloud Messaging (`[apps.*]`
/// with `provider = "fcm"` in sipwake.toml).
public struct FCMSettings: Sendable {
    /// The app id its devices report in their push tuples: their pushes go
    /// through this app's settings.
    public var appID: String
    /// The Firebase project's service account (its JSON key file).
    public var serviceAccount: FCMServiceAccount
    /// Base URL instead of Google's (a lab's push sink); nil for `https://fcm.googleapis.com`.
    public var url: String?
    /// What the app expects in its pushes' `data`.
    public var format: PushPayloadFormat
    /// The `title` and `body` of missed calls and answers elsewhere.
    public var notices: EndOfCallNotices

    public init(appID: String, serviceAccount: FCMServiceAccount, url: String? = nil,
                format: PushPayloadFormat = .acrobits, notices: EndOfCallNotices = .standard) {
        self.appID = appID
        self.serviceAccount = serviceAccount
        self.url = url
        self.format = format
        self.notices = notices
    }

    /// The send endpoint of the project: `{base}/v1/projects/{project_id}/messages:send`.
    public var sendURL: String {
        var base = url ?? "https://fcm.googleapis.com"
        if base.hasSuffix("/") { base.removeLast() }
        return "\(base)/v1/projects/\(serviceAccount.projectID)/messages:send"
    }
}
