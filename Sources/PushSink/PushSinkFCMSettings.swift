/// What the sink checks when it plays FCM HTTP v1 and Google's OAuth token
/// endpoint.
public struct PushSinkFCMSettings: Sendable, Equatable {
    /// The project id sends must name; nil takes any.
    public var project: String?
    /// The PEM text of the RSA key that signs OAuth assertions (the service
    /// account's private key, or its public key). Without it every
    /// assertion is refused, so no access token is issued.
    public var keyPEM: String?
    /// The `iss` assertions must carry (the service account's
    /// `client_email`); nil takes any.
    public var clientEmail: String?
    /// An extra `aud` assertions may carry besides the sink's own token URL
    /// and Google's (the service account's `token_uri`).
    public var tokenURI: String?
    /// Seconds an issued access token lives (`expires_in`).
    public var accessTokenLifetime: Int

    /// The scope an assertion must ask for.
    public static let messagingScope = "https://www.googleapis.com/auth/firebase.messaging"
    /// Google's token URL, taken as `aud` too.
    public static let googleTokenURI = "https://oauth2.googleapis.com/token"
    /// The longest assertion Google takes (`exp` - `iat`): one hour.
    public static let assertionLifetime = 3600

    public init(project: String? = nil, keyPEM: String? = nil, clientEmail: String? = nil, tokenURI: String? = nil,
                accessTokenLifetime: Int = 3599) {
        self.project = project
        self.keyPEM = keyPEM
        self.clientEmail = clientEmail
        self.tokenURI = tokenURI
        self.accessTokenLifetime = accessTokenLifetime
    }
}
