import Foundation
import Logging

/// One JSON object per line on standard error, for log collectors:
/// `{"label":"sipwake","level":"info","msg":"call ended","call.pushes":1,"ts":"2026-11-27T18:25:01.123Z",…}`.
///
/// The timestamp is UTC with milliseconds. A metadata value logged as a
/// number (`.stringConvertible(3)`) is a JSON number; every other value is
/// a string, so a field never changes type with its value (a user named
/// `1000` stays `"1000"`).
public struct JSONLogHandler: LogHandler {
    /// A level set on this handler alone; else the shared one.
    private var ownLevel: Logger.Level?
    private let sharedLevel: LogLevelControl?
    public var logLevel: Logger.Level {
        get { ownLevel ?? sharedLevel?.level ?? .info }
        set { ownLevel = newValue }
    }
    public var metadata: Logger.Metadata = [:]
    private let label: String
    private let write: @Sendable (Data) -> Void

    /// `write` receives each line with its newline; standard error by default.
    /// `level`, when given, is the level to filter at until one is set on the handler.
    public init(label: String, level: LogLevelControl? = nil,
                write: @escaping @Sendable (Data) -> Void = { FileHandle.standardError.write($0) }) {
        sharedLevel = level
        self.label = label
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var object: [String: Any] = [
            "ts": Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)),
            "level": event.level.rawValue,
            "label": label,
            "msg": event.message.description,
        ]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { _, new in new }) {
            object[key] = Self.json(value)
        }
        guard var data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
        data.append(UInt8(ascii: "\n"))
        write(data)
    }

    /// A number for a value logged as one, else its text.
    static func json(_ value: Logger.Metadata.Value) -> Any {
        if case .stringConvertible(let convertible) = value {
            switch convertible {
            case let number as Int: return number
            case let number as Int64: return number
            case let number as UInt64: return number
            case let number as Double where number.isFinite: return number
            default: break
            }
        }
        return value.description
    }
}
