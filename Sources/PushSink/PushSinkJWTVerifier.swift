import JWTKit

/// Checks JWT signatures against one key with jwt-kit: the APNs key (ES256)
/// or the service account's key (RS256).
struct PushSinkJWTVerifier: Sendable {
    /// The `alg` a JWT's header must name.
    let algorithm: String
    private let keys: JWTKeyCollection

    /// For APNs provider tokens.
    static func apns(pem: String) async throws(PushSinkError) -> PushSinkJWTVerifier {
        let key = try PushSinkKeys.apnsKey(pem: pem)
        return PushSinkJWTVerifier(algorithm: "ES256", keys: await JWTKeyCollection().add(ecdsa: key))
    }

    /// For OAuth assertions signed by a service account.
    static func google(pem: String) async throws(PushSinkError) -> PushSinkJWTVerifier {
        let key = try PushSinkKeys.googleKey(pem: pem)
        return PushSinkJWTVerifier(algorithm: "RS256", keys: await JWTKeyCollection().add(rsa: key, digestAlgorithm: .sha256))
    }

    /// True when `jwt` names this verifier's algorithm and its signature is the key's.
    func verifies(_ jwt: PushSinkJWT) async -> Bool {
        guard jwt.algorithm == algorithm else { return false }
        do {
            _ = try await keys.verify(jwt.text, as: PushSinkJWTClaims.self)
            return true
        } catch {
            return false
        }
    }
}
