/// One app sipwake pushes to directly (an `[apps.*]` table of sipwake.toml):
/// through APNs with the team's signing key, or through FCM with the
/// project's service account.
public enum PushAppSettings: Sendable {
    case apns(APNsSettings)
    case fcm(FCMSettings)

    /// The app id its devices report.
    public var appID: String {
        switch self {
        case .apns(let settings): return settings.appID
        case .fcm(let settings): return settings.appID
        }
    }
}
