import JWTKit

/// The claims of the assertion a service account trades for an access token
/// (Google's JWT-bearer grant): who asks (`iss`), for what (`scope`), of whom
/// (`aud`, the token endpoint), and when (`iat`, `exp`, Unix seconds).
struct FCMAssertionClaims: JWTPayload, Equatable {
    static let messagingScope = "https://www.googleapis.com/auth/firebase.messaging"

    var iss: String
    var scope: String
    var aud: String
    var iat: Int
    var exp: Int

    /// Google checks the assertion; sipwake only signs it.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
