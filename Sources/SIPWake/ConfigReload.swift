/// What one reload did: the keys applied at once, the keys that changed but
/// take effect only after a restart, and what happened to the push apps'
/// credentials. `failure` is set, and nothing applied, when the new
/// configuration could not be read or used.
public struct ConfigReload: Sendable, Equatable {
    public var applied: [String] = []
    public var needRestart: [String] = []
    public var newCredentials: [String] = []
    public var failure: String?
}
