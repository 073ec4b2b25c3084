import Foundation

/// A JSON value as the direct providers build and read payloads: a Swift
/// value that keeps booleans, integers and other numbers apart (so that FCM's
/// string-only `data` gets `true`, not `1`), written with sorted keys and
/// unescaped slashes so that payloads are stable and compact.
public enum PushJSONValue: Sendable, Equatable, Codable {
    case string(String)
    case integer(Int)
    case number(Double)
    case bool(Bool)
    case null
    case array([PushJSONValue])
    case object([String: PushJSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([PushJSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: PushJSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .null: try container.encodeNil()
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The value as FCM's `data` takes it: strings as they are, booleans as
    /// `true`/`false`, numbers as written, null as an empty string, arrays
    /// and objects as their JSON text.
    public var stringValue: String {
        switch self {
        case .string(let value): return value
        case .integer(let value): return String(value)
        case .number(let value): return value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
        case .bool(let value): return value ? "true" : "false"
        case .null: return ""
        case .array, .object: return String(decoding: Self.encoded(self), as: UTF8.self)
        }
    }

    /// `value` as JSON text, keys sorted, slashes unescaped.
    static func encoded(_ value: some Encodable) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // These values are strings, numbers, booleans, arrays and objects:
        // only a non-finite number fails, and none is ever made.
        return (try? encoder.encode(value)) ?? Data("null".utf8)
    }

    /// The JSON object in `data`; nil when `data` is not a JSON object.
    static func object(from data: Data) -> [String: PushJSONValue]? {
        guard case .object(let object)? = try? JSONDecoder().decode(PushJSONValue.self, from: data) else { return nil }
        return object
    }
}

extension [String: PushJSONValue] {
    /// The object as JSON text, keys sorted.
    var jsonData: Data { PushJSONValue.encoded(self) }

    /// Every value as a string, for FCM's `data`.
    var stringValues: [String: String] { mapValues(\.stringValue) }
}
