import JWTKit

/// The claims the tests sign: APNs' `iss` and `iat`, and an OAuth
/// assertion's `exp`, `aud` and `scope` too.
struct SinkTestClaims: JWTPayload {
    var iss: String
    var iat: Int
    var exp: Int?
    var aud: String?
    var scope: String?

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
