import Foundation

/// The push sink's mutable state, behind its lock.
struct PushSinkState: ~Copyable {
    var records: [PushSinkRecord] = []
    var rules: [String: PushSinkRule]
    var defaultRule: PushSinkRule
    var output: FileHandle?
    var listening = PushSinkListening.waiting([])
    /// Set on graceful shutdown: slow answers stop waiting.
    var stopping = false
    /// Access tokens the OAuth endpoint issued, with when each expires.
    var accessTokens: [String: Date] = [:]
    /// How many more otherwise-good APNs requests get `ExpiredProviderToken`.
    var providerTokensToExpire = 0
    /// SHA-256 digests of the APNs JWTs refused as expired: they stay refused.
    var expiredProviderTokens: Set<String> = []
}
