import Foundation
import Hummingbird
import Logging

/// Plays APNs' `POST /3/device/TOKEN`: checks the provider JWT, the `apns-*`
/// header lines and the payload the way Apple documents them, then answers
/// by the token's rule with Apple's status and `{"reason": ...}`. Every
/// answer carries an `apns-id`: the request's, or a new UUID.
struct PushSinkAPNs: Sendable {
    /// The `apns-push-type` values Apple takes.
    static let pushTypes: Set<String> = [
        "alert", "background", "location", "voip", "complication", "fileprovider", "mdm", "liveactivity",
        "pushtotalk", "widgets", "controls",
    ]
    /// Payload limits in bytes: VoIP pushes, and every other push.
    static let voipPayloadLimit = 5120
    static let payloadLimit = 4096
    /// How far in the future a JWT's `iat` may be (clock skew).
    static let clockSkew = 60.0

    let sink: PushSink
    let verifier: PushSinkJWTVerifier?

    /// Why a request is refused: status, Apple's reason, the check in words.
    private struct Refusal: Error {
        let status: Int
        let reason: String
        let check: String
    }

    func push(_ request: Request, token: String) async throws -> Response {
        let now = Date()
        var record = PushSinkRecord(receivedAt: now, provider: "apns", token: token, method: request.method.rawValue,
                                    path: request.uri.path, headers: PushSinkRoutes.headers(of: request, dropping: ["authorization"]),
                                    body: [:], status: 200)
        let apnsID = request.headers[HTTPFields.Element.Name("apns-id")!].flatMap { UUID(uuidString: $0) != nil ? $0 : nil }
            ?? UUID().uuidString.lowercased()
        var answerHeaders = ["apns-id": apnsID]
        do {
            let data: Data
            do {
                data = Data(buffer: try await request.body.collect(upTo: PushSink.maxBodySize))
            } catch let error as HTTPResponseError where error.status == .contentTooLarge {
                throw Refusal(status: 413, reason: "PayloadTooLarge", check: "body larger than \(PushSink.maxBodySize) bytes")
            }
            let jwt = try await checkProviderToken(request, record: &record, now: now)
            let pushType = try checkHeaders(request)
            let payload = try checkPayload(data, pushType: pushType)
            record.payload = payload
            record.body = payload.fields
            // Last, so only requests that pass every check count down.
            if sink.expireProviderToken(jwt.digest) {
                throw Refusal(status: 403, reason: "ExpiredProviderToken",
                              check: "JWT refused as expired by --expire-provider-tokens; it stays refused")
            }
        } catch let refusal as Refusal {
            return refuse(refusal, record: &record, answerHeaders: answerHeaders)
        }

        let rule = sink.rule(forToken: token)
        record.rule = rule.description
        let unregistered = PushSinkJSON.object([
            "reason": .string("Unregistered"), "timestamp": .number((now.timeIntervalSince1970 * 1000).rounded(.down)),
        ])
        let answer: PushSinkJSON?
        switch rule {
        case .ok, .slow:
            record.status = 200
            answer = nil
        case .gone:
            record.status = 410
            answer = unregistered
        case .bad:
            record.status = 400
            answer = .object(["reason": .string("BadDeviceToken")])
        case .fail(let status):
            record.status = status
            answer = status == 410 ? unregistered : .object(["reason": .string(Self.reason(forStatus: status))])
        }
        record.reason = answer?["reason"]?.string
        if let seconds = sink.settings.retryAfter, record.status == 429 || record.status == 503 {
            answerHeaders["retry-after"] = String(seconds)
        }
        record.answer = answer
        record.answerHeaders = answerHeaders
        sink.add(record)
        sink.logger.debug("push sink received a push", metadata: [
            "push.provider": "apns", "push.token": "\(token)", "sink.rule": "\(rule)", "http.status": .stringConvertible(record.status),
        ])
        try await sink.wait(for: rule)
        guard let answer else {
            var headers = HTTPFields()
            headers[HTTPFields.Element.Name("apns-id")!] = apnsID
            return Response(status: .ok, headers: headers)
        }
        return PushSinkRoutes.json(status: record.status, answer, headers: answerHeaders)
    }

    private func refuse(_ refusal: Refusal, record: inout PushSinkRecord, answerHeaders: [String: String]) -> Response {
        let answer = PushSinkJSON.object(["reason": .string(refusal.reason)])
        record.status = refusal.status
        record.reason = refusal.reason
        record.error = refusal.check
        record.answer = answer
        record.answerHeaders = answerHeaders
        sink.add(record)
        sink.logger.debug("push sink refused a push", metadata: [
            "push.provider": "apns", "push.token": "\(record.token ?? "")", "http.status": .stringConvertible(refusal.status),
            "push.reason": "\(refusal.reason)", "push.check": "\(refusal.check)",
        ])
        return PushSinkRoutes.json(status: refusal.status, answer, headers: answerHeaders)
    }

    /// The provider JWT: bearer, ES256, `kid`, `iss`, signature, age, not refused before.
    private func checkProviderToken(_ request: Request, record: inout PushSinkRecord, now: Date) async throws -> PushSinkJWT {
        guard let bearer = PushSinkRoutes.bearer(of: request) else {
            throw Refusal(status: 403, reason: "MissingProviderToken", check: "no authorization: bearer header")
        }
        guard let jwt = PushSinkJWT(bearer) else {
            throw Refusal(status: 403, reason: "InvalidProviderToken", check: "bearer token is not a JWT")
        }
        record.jwtKid = jwt.keyID
        record.jwtIss = jwt.issuer
        record.jwtAgeSeconds = jwt.age(at: now)
        let settings = sink.settings.apns
        func invalid(_ check: String) -> Refusal { Refusal(status: 403, reason: "InvalidProviderToken", check: check) }
        guard jwt.algorithm == "ES256" else { throw invalid("JWT alg is \(jwt.algorithm ?? "missing"), not ES256") }
        guard let kid = jwt.keyID else { throw invalid("JWT header has no kid") }
        if let expected = settings.keyID, kid != expected { throw invalid("JWT kid \(kid) is not --apns-key-id \(expected)") }
        guard let issuer = jwt.issuer else { throw invalid("JWT has no iss") }
        if let expected = settings.teamID, issuer != expected { throw invalid("JWT iss \(issuer) is not --apns-team-id \(expected)") }
        guard let issuedAt = jwt.time("iat") else { throw invalid("JWT has no numeric iat") }
        guard let verifier else { throw invalid("the sink has no --apns-key to verify JWTs with") }
        guard await verifier.verifies(jwt) else { throw invalid("JWT signature does not verify with --apns-key") }
        if issuedAt > now.timeIntervalSince1970 + Self.clockSkew { throw invalid("JWT iat is in the future") }
        if now.timeIntervalSince1970 - issuedAt > Double(PushSinkAPNsSettings.providerTokenLifetime) {
            throw Refusal(status: 403, reason: "ExpiredProviderToken",
                          check: "JWT iat older than \(PushSinkAPNsSettings.providerTokenLifetime) s")
        }
        if sink.refusedProviderToken(jwt.digest) {
            throw Refusal(status: 403, reason: "ExpiredProviderToken", check: "JWT was refused as expired before")
        }
        return jwt
    }

    /// The `apns-*` header lines; returns the push type (nil when not given).
    private func checkHeaders(_ request: Request) throws -> String? {
        var seen: Set<String> = []
        for field in request.headers where field.name.canonicalName.hasPrefix("apns-") {
            guard seen.insert(field.name.canonicalName).inserted else {
                throw Refusal(status: 400, reason: "DuplicateHeaders", check: "\(field.name.canonicalName) repeated")
            }
        }
        func header(_ name: String) -> String? { request.headers[HTTPFields.Element.Name(name)!] }
        guard let topic = header("apns-topic"), !topic.isEmpty else {
            throw Refusal(status: 400, reason: "MissingTopic", check: "no apns-topic")
        }
        let pushType = header("apns-push-type")
        if let pushType {
            guard Self.pushTypes.contains(pushType) else {
                throw Refusal(status: 400, reason: "InvalidPushType", check: "apns-push-type \(pushType) is not one Apple knows")
            }
            if pushType == "voip", !topic.hasSuffix(".voip") {
                throw Refusal(status: 400, reason: "DeviceTokenNotForTopic",
                              check: "apns-push-type voip needs an apns-topic ending in .voip, got \(topic)")
            }
        }
        if let priority = header("apns-priority"), !["10", "5", "1"].contains(priority) {
            throw Refusal(status: 400, reason: "BadPriority", check: "apns-priority \(priority) is not 10, 5 or 1")
        }
        if let expiration = header("apns-expiration"), UInt64(expiration) == nil {
            throw Refusal(status: 400, reason: "BadExpirationDate", check: "apns-expiration \(expiration) is not a UNIX time")
        }
        if let id = header("apns-id"), UUID(uuidString: id) == nil {
            throw Refusal(status: 400, reason: "BadMessageId", check: "apns-id \(id) is not a UUID")
        }
        if let collapse = header("apns-collapse-id"), collapse.utf8.count > 64 {
            throw Refusal(status: 400, reason: "BadCollapseId", check: "apns-collapse-id longer than 64 bytes")
        }
        return pushType
    }

    /// The body: not empty, within the push type's limit, a JSON object.
    private func checkPayload(_ data: Data, pushType: String?) throws -> PushSinkJSON {
        guard !data.isEmpty else { throw Refusal(status: 400, reason: "PayloadEmpty", check: "empty body") }
        let limit = pushType == "voip" ? Self.voipPayloadLimit : Self.payloadLimit
        guard data.count <= limit else {
            throw Refusal(status: 413, reason: "PayloadTooLarge", check: "body of \(data.count) bytes is over \(limit)")
        }
        guard let payload = PushSinkJSON(data: data), payload.object != nil else {
            throw Refusal(status: 400, reason: "BadPayload", check: "body is not a JSON object")
        }
        return payload
    }

    /// Apple's reason for a `fail:STATUS` rule.
    static func reason(forStatus status: Int) -> String {
        switch status {
        case 403: "Forbidden"
        case 404: "BadPath"
        case 405: "MethodNotAllowed"
        case 410: "Unregistered"
        case 413: "PayloadTooLarge"
        case 429: "TooManyRequests"
        case 503: "ServiceUnavailable"
        case 500...: "InternalServerError"
        default: "BadRequest"
        }
    }
}
