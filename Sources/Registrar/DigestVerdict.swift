/// The outcome of checking a request's digest credentials.
public enum DigestVerdict: Sendable, Equatable {
    /// The response proves knowledge of the user's password.
    case authenticated(username: String)
    /// 401 (or 407 at a proxy): one challenge per enabled algorithm, in
    /// the configured order (RFC 8760 §2.4); `stale` set when the response was right but the
    /// nonce may not be used again (expired, replayed, used up), so the
    /// client retries with the new nonce without asking for the password.
    case challenge([DigestChallenge], reason: DigestChallengeReason)
    /// 403: the credentials are valid but belong to another user than the
    /// AOR the request is for (RFC 3261 §10.3 step 3).
    case forbidden(reason: String)
    /// 400: the credentials are malformed or use an unsupported qop.
    case badRequest(reason: String)
}
