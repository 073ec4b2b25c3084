import Foundation
import JWTKit

/// Makes the provider tokens of one APNs app: JWTs signed with ES256 by the
/// team's signing key, with the key id in the header (`kid`) and the team id
/// (`iss`) and time of issue (`iat`) as claims. A token is used for 40
/// minutes (Apple refuses tokens renewed more often than every 20 minutes
/// and tokens older than an hour).
public struct APNsTokenMaker: PushCredentialMaker {
    public let appID: String
    public let keyID: String
    public let teamID: String
    private let key: APNsSigningKey

    public init(appID: String, key: APNsSigningKey, keyID: String, teamID: String) {
        self.appID = appID
        self.key = key
        self.keyID = keyID
        self.teamID = teamID
    }

    public var provider: String { APNsProvider.name }

    public func makeCredential(at now: Date) async throws -> PushCredential {
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: key.key, kid: JWKIdentifier(string: keyID))
        let issuedAt = Int(now.timeIntervalSince1970)
        let token = try await keys.sign(APNsTokenClaims(iss: teamID, iat: issuedAt), kid: JWKIdentifier(string: keyID))
        let issued = Date(timeIntervalSince1970: Double(issuedAt))
        return PushCredential(token: token, issuedAt: issued,
                              expiresAt: issued.addingTimeInterval(PushCredentialTiming.apnsTokenMaximumAge))
    }

    public func renewalTime(of credential: PushCredential) -> Date {
        PushCredentialTiming.apnsRenewal(issuedAt: credential.issuedAt)
    }
}
