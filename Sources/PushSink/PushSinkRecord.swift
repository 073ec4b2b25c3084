import Foundation

/// One request the push sink received: when, on which path, its JSON fields
/// (every value as a string), what the sink answered, and why the request was
/// refused when it was.
public struct PushSinkRecord: Sendable, Codable, Equatable {
    public var receivedAt: Date
    public var path: String
    public var body: [String: String]
    public var status: Int
    /// Set when the body was not a JSON object.
    public var error: String?

    public init(receivedAt: Date, path: String, body: [String: String], status: Int, error: String? = nil) {
        self.receivedAt = receivedAt
        self.path = path
        self.body = body
        self.status = status
        self.error = error
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
