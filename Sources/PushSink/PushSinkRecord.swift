import Foundation

/// One request the push sink received: when, for which provider and device
/// token, with which method, on which path, its header lines, its JSON fields
/// (every value as a string) and whole payload, what the sink answered, and
/// which check refused it when one did. Bearer tokens, JWTs and OAuth
/// assertions are never kept: a JWT is named by its `kid`, `iss` and age.
public struct PushSinkRecord: Sendable, Codable, Equatable {
    public var receivedAt: Date
    /// `acrobits`, `apns`, `fcm`, `oauth` or `webhook`.
    public var provider: String
    /// The device token the push was for: the gateway's `DeviceToken`, the
    /// APNs path's token, FCM's `message.token`; a webhook's `data.user_id`.
    public var token: String?
    /// `POST`, or the method the sender chose (`PUT`, `PATCH`).
    public var method: String
    public var path: String
    /// The request's header lines by lowercased name; the values of a
    /// repeated header are joined with `, `. APNs, FCM and OAuth requests
    /// leave `authorization` out.
    public var headers: [String: String]
    /// The top-level JSON fields (OAuth: the form fields but the assertion).
    public var body: [String: String]
    /// The whole JSON body of an APNs or FCM push.
    public var payload: PushSinkJSON?
    public var status: Int
    /// The service's word for a refusal: APNs' `reason`, FCM's `status`
    /// (`errorCode` when it has one), OAuth's `error`.
    public var reason: String?
    /// Which check refused the request, or why the body was not read.
    public var error: String?
    /// The token rule that chose the answer, when the checks passed.
    public var rule: String?
    /// The JWT's header `kid`, claim `iss`, and seconds since its `iat`.
    public var jwtKid: String?
    public var jwtIss: String?
    public var jwtAgeSeconds: Int?
    /// The JSON answered (an OAuth answer without its access token).
    public var answer: PushSinkJSON?
    /// Header lines answered that a sender acts on: `apns-id`, `retry-after`.
    public var answerHeaders: [String: String]?
    /// A webhook's signature check, when the sink knows the secrets:
    /// `valid`, `missing`, `malformed`, `stale` or `invalid`.
    public var signature: String?

    public init(receivedAt: Date, provider: String = "acrobits", token: String? = nil, method: String = "POST",
                path: String, headers: [String: String] = [:], body: [String: String], payload: PushSinkJSON? = nil,
                status: Int, reason: String? = nil, error: String? = nil, rule: String? = nil) {
        self.receivedAt = receivedAt
        self.provider = provider
        self.token = token
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
        self.payload = payload
        self.status = status
        self.reason = reason
        self.error = error
        self.rule = rule
    }

    /// Also reads the lines of older sinks: without `provider` a line is
    /// the gateway's, without `method` a `POST`, without `headers` none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        receivedAt = try container.decode(Date.self, forKey: .receivedAt)
        provider = try container.decodeIfPresent(String.self, forKey: .provider) ?? "acrobits"
        token = try container.decodeIfPresent(String.self, forKey: .token)
        method = try container.decodeIfPresent(String.self, forKey: .method) ?? "POST"
        path = try container.decode(String.self, forKey: .path)
        headers = try container.decodeIfPresent([String: String].self, forKey: .headers) ?? [:]
        body = try container.decode([String: String].self, forKey: .body)
        payload = try container.decodeIfPresent(PushSinkJSON.self, forKey: .payload)
        status = try container.decode(Int.self, forKey: .status)
        reason = try container.decodeIfPresent(String.self, forKey: .reason)
        error = try container.decodeIfPresent(String.self, forKey: .error)
        rule = try container.decodeIfPresent(String.self, forKey: .rule)
        jwtKid = try container.decodeIfPresent(String.self, forKey: .jwtKid)
        jwtIss = try container.decodeIfPresent(String.self, forKey: .jwtIss)
        jwtAgeSeconds = try container.decodeIfPresent(Int.self, forKey: .jwtAgeSeconds)
        answer = try container.decodeIfPresent(PushSinkJSON.self, forKey: .answer)
        answerHeaders = try container.decodeIfPresent([String: String].self, forKey: .answerHeaders)
        signature = try container.decodeIfPresent(String.self, forKey: .signature)
    }

    /// The encoder of the output lines and `GET /records`: sorted keys, one
    /// line, `receivedAt` in ISO 8601 with milliseconds.
    public static func jsonEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.formatted(timeFormat))
        }
        return encoder
    }

    /// Reads what ``jsonEncoder()`` writes.
    public static func jsonDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            return try timeFormat.parse(text)
        }
        return decoder
    }

    private static let timeFormat = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
}
