/// Why a request was challenged: what the operator's log and metrics say,
/// and whether it counts as a failed attempt against the guessing limits.
public enum DigestChallengeReason: String, Sendable, Equatable {
    /// No credentials for our realm: the normal first request.
    case noCredentials = "no-credentials"
    /// Credentials for another realm or an algorithm we do not offer.
    case otherRealmOrAlgorithm = "other-realm-or-algorithm"
    /// A nonce we did not issue (forged, or from before a change of `auth.secret`).
    case foreignNonce = "foreign-nonce"
    /// The response is wrong, or the user is unknown (the two look alike).
    case wrongResponse = "wrong-response"
    /// Right response, but the nonce is older than `auth.nonce_lifetime`.
    case staleNonce = "stale-nonce"
    /// Right response, but its nonce-count was already used with this nonce:
    /// a captured request sent again.
    case replayed
    /// Right response, but the nonce was used `auth.nonce_max_uses` times.
    case exhausted
    /// Right response, but the nonce is older than what the server still
    /// tracks (issued before a restart, or pushed out of a full table).
    case forgotten

    /// Only a wrong response is someone trying a password.
    public var isFailedAttempt: Bool { self == .wrongResponse }
}
