import Foundation
import Hummingbird
import Logging

/// Plays Google's OAuth token endpoint, `POST /token` with
/// `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion=JWT`:
/// checks the service account's RS256 assertion (signature, `iss`, `aud`,
/// `scope`, lifetime) and issues an access token that the sink's FCM
/// endpoint then takes until it expires.
struct PushSinkOAuth: Sendable {
    static let jwtBearer = "urn:ietf:params:oauth:grant-type:jwt-bearer"
    /// How far in the future an assertion's `iat` may be (clock skew).
    static let clockSkew = 60.0

    let sink: PushSink
    let verifier: PushSinkJWTVerifier?

    /// Why a grant is refused: OAuth's `error` and `error_description`, the check in words.
    private struct Refusal: Error {
        let error: String
        let description: String
        let check: String
    }

    func grant(_ request: Request) async throws -> Response {
        let now = Date()
        var record = PushSinkRecord(receivedAt: now, provider: "oauth", method: request.method.rawValue,
                                    path: request.uri.path, headers: PushSinkRoutes.headers(of: request, dropping: ["authorization"]),
                                    body: [:], status: 200)
        do {
            let data: Data
            do {
                data = Data(buffer: try await request.body.collect(upTo: PushSink.maxBodySize))
            } catch let error as HTTPResponseError where error.status == .contentTooLarge {
                throw Refusal(error: "invalid_request", description: "Request too large.",
                              check: "body larger than \(PushSink.maxBodySize) bytes")
            }
            let form = Self.form(String(decoding: data, as: UTF8.self))
            record.body = form.filter { $0.key != "assertion" }
            let grantType = form["grant_type"] ?? ""
            guard grantType == Self.jwtBearer else {
                throw Refusal(error: "unsupported_grant_type", description: "Invalid grant_type: \(grantType)",
                              check: "grant_type is not \(Self.jwtBearer)")
            }
            guard let assertion = form["assertion"], !assertion.isEmpty else {
                throw Refusal(error: "invalid_request", description: "Missing required parameter: assertion", check: "no assertion")
            }
            try await check(assertion, request: request, record: &record, now: now)
        } catch let refusal as Refusal {
            let answer = PushSinkJSON.object(["error": .string(refusal.error), "error_description": .string(refusal.description)])
            record.status = 400
            record.reason = refusal.error
            record.error = refusal.check
            record.answer = answer
            sink.add(record)
            sink.logger.debug("push sink refused an access token", metadata: [
                "push.provider": "oauth", "oauth.error": "\(refusal.error)", "push.check": "\(refusal.check)",
            ])
            return PushSinkRoutes.json(status: 400, answer)
        }
        let lifetime = sink.settings.fcm.accessTokenLifetime
        let token = sink.issueAccessToken(lifetime: lifetime)
        let shown: [String: PushSinkJSON] = ["expires_in": .number(Double(lifetime)), "token_type": .string("Bearer")]
        record.answer = .object(shown)
        sink.add(record)
        sink.logger.debug("push sink issued an access token", metadata: [
            "push.provider": "oauth", "jwt.iss": "\(record.jwtIss ?? "")", "oauth.expires_in": .stringConvertible(lifetime),
        ])
        var answer = shown
        answer["access_token"] = .string(token)
        return PushSinkRoutes.json(status: 200, .object(answer), headers: ["cache-control": "no-store"])
    }

    /// The assertion: RS256 by the service account's key, its `iss`, an
    /// `aud` naming a token URL, a lifetime of an hour at most, the FCM scope.
    private func check(_ assertion: String, request: Request, record: inout PushSinkRecord, now: Date) async throws {
        guard let jwt = PushSinkJWT(assertion) else {
            throw Refusal(error: "invalid_grant", description: "Invalid JWT: assertion is not a JWT.", check: "assertion is not a JWT")
        }
        record.jwtKid = jwt.keyID
        record.jwtIss = jwt.issuer
        record.jwtAgeSeconds = jwt.age(at: now)
        guard let verifier else {
            throw Refusal(error: "invalid_grant", description: "Invalid JWT Signature.",
                          check: "the sink has no --fcm-service-account or --fcm-key to verify assertions with")
        }
        guard await verifier.verifies(jwt) else {
            throw Refusal(error: "invalid_grant", description: "Invalid JWT Signature.",
                          check: "assertion is not RS256 or its signature does not verify with the FCM key")
        }
        let settings = sink.settings.fcm
        guard let issuer = jwt.issuer, settings.clientEmail.map({ $0 == issuer }) ?? true else {
            throw Refusal(error: "invalid_grant", description: "Invalid grant: account not found",
                          check: "assertion iss \(jwt.issuer ?? "missing") is not the service account's client_email")
        }
        let audiences = acceptedAudiences(request)
        guard let audience = jwt.claims["aud"]?.string, audiences.contains(audience) else {
            throw Refusal(error: "invalid_grant",
                          description: "Invalid JWT: Failed audience check. The right audience is \(audiences.first ?? "")",
                          check: "assertion aud \(jwt.claims["aud"]?.text ?? "missing") is not one of \(audiences.joined(separator: ", "))")
        }
        guard let issuedAt = jwt.time("iat"), let expires = jwt.time("exp"), expires > issuedAt,
              expires - issuedAt <= Double(PushSinkFCMSettings.assertionLifetime),
              expires > now.timeIntervalSince1970, issuedAt <= now.timeIntervalSince1970 + Self.clockSkew else {
            throw Refusal(error: "invalid_grant",
                          description: "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.",
                          check: "assertion iat/exp missing, expired, in the future, or more than an hour apart")
        }
        let scopes = (jwt.claims["scope"]?.string ?? "").split(separator: " ").map(String.init)
        guard scopes.contains(PushSinkFCMSettings.messagingScope) else {
            throw Refusal(error: "invalid_scope", description: "Invalid OAuth scope or ID token audience provided.",
                          check: "assertion scope lacks \(PushSinkFCMSettings.messagingScope)")
        }
    }

    /// The sink's own token URL as this request reached it, the service
    /// account's `token_uri`, and Google's.
    private func acceptedAudiences(_ request: Request) -> [String] {
        var audiences: [String] = []
        if let authority = request.head.authority {
            audiences.append("\(sink.settings.scheme)://\(authority)/token")
        }
        if let uri = sink.settings.fcm.tokenURI { audiences.append(uri) }
        audiences.append(PushSinkFCMSettings.googleTokenURI)
        return audiences
    }

    /// An `application/x-www-form-urlencoded` body; a repeated name keeps its first value.
    static func form(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ part: Substring) -> String {
                part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(part)
            }
            let name = decode(parts[0])
            if fields[name] == nil { fields[name] = parts.count == 2 ? decode(parts[1]) : "" }
        }
        return fields
    }
}
