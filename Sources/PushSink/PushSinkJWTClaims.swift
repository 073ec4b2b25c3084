import JWTKit

/// Any JWT claims: jwt-kit checks only the signature with it, and the sink
/// checks each claim itself so it can answer the way the real service does.
struct PushSinkJWTClaims: JWTPayload {
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
