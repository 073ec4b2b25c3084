import Foundation

/// A JSON value as a push carried it, kept whole in a record (`payload`,
/// `answer`) so a lab sees nested objects such as APNs' `aps` or FCM's
/// `android` as they came.
public enum PushSinkJSON: Sendable, Equatable, Codable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([PushSinkJSON])
    case object([String: PushSinkJSON])

    /// Reads `data` as one JSON value; nil when it is not JSON.
    public init?(data: Data) {
        guard let value = try? JSONDecoder().decode(PushSinkJSON.self, from: data) else { return nil }
        self = value
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([PushSinkJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: PushSinkJSON].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            // Whole numbers as integers, so 30 stays 30 and not 30.0.
            if value.rounded() == value, abs(value) < 9e15 {
                try container.encode(Int64(value))
            } else {
                try container.encode(value)
            }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The members of an object, nil for any other value.
    public var object: [String: PushSinkJSON]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The text of a string, nil for any other value.
    public var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The member `key` of an object.
    public subscript(key: String) -> PushSinkJSON? {
        object?[key]
    }

    /// The value as compact JSON text with sorted keys.
    public var text: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }

    /// Top-level members of an object as strings (strings as they are,
    /// anything else as its JSON text), as the `body` of a record.
    var fields: [String: String] {
        (object ?? [:]).mapValues { $0.string ?? $0.text }
    }
}
