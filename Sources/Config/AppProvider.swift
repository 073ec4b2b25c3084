/// The push service an `[apps.NAME]` app is woken through.
public enum AppProvider: String, Sendable, Hashable, CaseIterable {
    /// The Acrobits push gateway (apps built on the Acrobits SDK).
    case acrobits
    /// Apple Push Notification service, token-based (a `.p8` key).
    case apns
    /// Firebase Cloud Messaging HTTP v1 (a service account).
    case fcm
}
