/// What a ``PushSystem/reload(acrobits:apps:webhook:)`` did to the apps'
/// credentials, by app id: for the reload's log line.
public struct PushReloadSummary: Sendable, Equatable {
    /// Apps new, or whose signing key or service account changed: their
    /// credential is being made now.
    public var newCredentials: [String]
    /// Apps whose credential was kept.
    public var keptCredentials: [String]
    /// Apps no longer configured.
    public var removedApps: [String]

    public init(newCredentials: [String], keptCredentials: [String], removedApps: [String]) {
        self.newCredentials = newCredentials
        self.keptCredentials = keptCredentials
        self.removedApps = removedApps
    }
}
