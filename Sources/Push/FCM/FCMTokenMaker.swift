import Foundation
import JWTKit
import Ports

/// Makes the OAuth access tokens of one FCM app: signs an RS256 assertion
/// with the service account's key (`kid` = `private_key_id`, `iss` =
/// `client_email`, `scope` = Firebase messaging, `aud` = `token_uri`, valid an
/// hour) and posts it to `token_uri` as a JWT-bearer grant, through the push
/// client's HTTP thread (same TLS settings as the pushes). The token is used
/// until 5 minutes before it expires (halfway through its life when that is
/// shorter than 10 minutes).
public struct FCMTokenMaker: PushCredentialMaker {
    public let appID: String
    public let account: FCMServiceAccount
    private let http: any PushHTTPPerformer

    public init(appID: String, account: FCMServiceAccount, http: any PushHTTPPerformer) {
        self.appID = appID
        self.account = account
        self.http = http
    }

    public var provider: String { FCMProvider.name }

    public func makeCredential(at now: Date) async throws -> PushCredential {
        let assertion = try await self.assertion(at: now)
        let answer = await http.perform(tokenRequest(assertion: assertion))
        return try Self.credential(from: answer, at: now)
    }

    public func renewalTime(of credential: PushCredential) -> Date {
        PushCredentialTiming.oauthRenewal(issuedAt: credential.issuedAt, expiresAt: credential.expiresAt)
    }

    /// The signed assertion for a token asked at `now`.
    func assertion(at now: Date) async throws -> String {
        let keys = JWTKeyCollection()
        let kid = JWKIdentifier(string: account.privateKeyID)
        await keys.add(rsa: account.privateKey, digestAlgorithm: .sha256, kid: kid)
        let issuedAt = Int(now.timeIntervalSince1970)
        let claims = FCMAssertionClaims(iss: account.clientEmail, scope: FCMAssertionClaims.messagingScope,
                                        aud: account.tokenURI, iat: issuedAt, exp: issuedAt + 3600)
        return try await keys.sign(claims, kid: kid)
    }

    /// The JWT-bearer grant request carrying `assertion`.
    func tokenRequest(assertion: String) -> PushHTTPRequest {
        let form = "grant_type=" + Self.formEncoded("urn:ietf:params:oauth:grant-type:jwt-bearer")
            + "&assertion=" + Self.formEncoded(assertion)
        return PushHTTPRequest(
            url: account.tokenURI, method: "POST",
            headers: [PushHTTPHeader("content-type", "application/x-www-form-urlencoded"),
                      PushHTTPHeader("accept", "application/json")],
            body: Data(form.utf8))
    }

    /// The access token in Google's answer (`access_token`, `expires_in`
    /// seconds, `token_type` Bearer); throws with Google's `error` field when
    /// it refused.
    static func credential(from answer: PushHTTPAnswer, at now: Date) throws(FCMOAuthError) -> PushCredential {
        switch answer {
        case .transportFailure(let failure):
            throw FCMOAuthError("OAuth token endpoint unreachable: \(PushAnswerDetail.truncated(failure.message))")
        case .response(let status, _, let body):
            let object = PushJSONValue.object(from: body) ?? [:]
            guard (200..<300).contains(status) else {
                var words = "OAuth token endpoint refused (HTTP \(status))"
                if case .string(let error)? = object["error"] { words += ": \(PushAnswerDetail.truncated(error))" }
                if case .string(let description)? = object["error_description"] {
                    words += " (\(PushAnswerDetail.truncated(description)))"
                }
                throw FCMOAuthError(words)
            }
            guard case .string(let token)? = object["access_token"], !token.isEmpty else {
                throw FCMOAuthError("OAuth token endpoint answered without access_token")
            }
            if case .string(let type)? = object["token_type"], type.lowercased() != "bearer" {
                throw FCMOAuthError("OAuth token endpoint answered token_type \(PushAnswerDetail.truncated(type)), not Bearer")
            }
            let lifetime: Double
            switch object["expires_in"] {
            case .integer(let seconds)?: lifetime = Double(seconds)
            case .number(let seconds)?: lifetime = seconds
            case .string(let text)?: lifetime = Double(text) ?? 3600
            default: lifetime = 3600
            }
            guard lifetime > 0 else { throw FCMOAuthError("OAuth token endpoint answered expires_in \(lifetime)") }
            return PushCredential(token: token, issuedAt: now, expiresAt: now.addingTimeInterval(lifetime))
        }
    }

    /// `text` as an `application/x-www-form-urlencoded` value.
    static func formEncoded(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._*")
        allowed = allowed.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
