import Foundation

/// One request the push sink received: when, with which method, on which
/// path, its header lines, its JSON fields (every value as a string), what the
/// sink answered, and why the request was refused when it was.
public struct PushSinkRecord: Sendable, Codable, Equatable {
    public var receivedAt: Date
    /// `POST`, or the method the sender chose (`PUT`, `PATCH`).
    public var method: String
    public var path: String
    /// The request's header lines by lowercased name; the values of a
    /// repeated header are joined with `, `.
    public var headers: [String: String]
    public var body: [String: String]
    public var status: Int
    /// Set when the body was not a JSON object.
    public var error: String?

    public init(receivedAt: Date, method: String = "POST", path: String, headers: [String: String] = [:],
                body: [String: String], status: Int, error: String? = nil) {
        self.receivedAt = receivedAt
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
        self.status = status
        self.error = error
    }

    /// Also reads the lines of sinks that recorded neither method nor headers:
    /// their method is `POST`, their headers none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        receivedAt = try container.decode(Date.self, forKey: .receivedAt)
        method = try container.decodeIfPresent(String.self, forKey: .method) ?? "POST"
        path = try container.decode(String.self, forKey: .path)
        headers = try container.decodeIfPresent([String: String].self, forKey: .headers) ?? [:]
        body = try container.decode([String: String].self, forKey: .body)
        status = try container.decode(Int.self, forKey: .status)
        error = try container.decodeIfPresent(String.self, forKey: .error)
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
