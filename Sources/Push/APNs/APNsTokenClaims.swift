import JWTKit

/// The claims of an APNs provider token: the team id as issuer and the time
/// it was issued, in Unix seconds.
struct APNsTokenClaims: JWTPayload, Equatable {
    var iss: String
    var iat: Int

    /// Apple checks the token; sipwake only signs it.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
