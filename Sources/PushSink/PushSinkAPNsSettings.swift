/// What the sink checks when it plays APNs.
public struct PushSinkAPNsSettings: Sendable, Equatable {
    /// The PEM text of the signing key (a `.p8` private key or its public
    /// key). Without it every APNs request gets 403 `InvalidProviderToken`.
    public var keyPEM: String?
    /// The key id the JWT header's `kid` must carry; nil takes any.
    public var keyID: String?
    /// The team id the JWT's `iss` must carry; nil takes any.
    public var teamID: String?
    /// How many requests that pass every check get 403
    /// `ExpiredProviderToken` anyway; their JWTs stay refused after that.
    public var expireProviderTokens: Int

    /// The oldest JWT APNs takes: one hour.
    public static let providerTokenLifetime = 3600

    public init(keyPEM: String? = nil, keyID: String? = nil, teamID: String? = nil, expireProviderTokens: Int = 0) {
        self.keyPEM = keyPEM
        self.keyID = keyID
        self.teamID = teamID
        self.expireProviderTokens = expireProviderTokens
    }
}
