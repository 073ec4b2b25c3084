import Foundation
import Logging

/// One JSON object per line on standard error, for log collectors:
/// `{"ts":"…","level":"info","label":"sipwake","msg":"sip listening","listen":"…"}`.
public struct JSONLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    private let label: String

    public init(label: String) {
        self.label = label
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var object: [String: String] = [
            "ts": ISO8601DateFormatter().string(from: Date()),
            "level": event.level.rawValue,
            "label": label,
            "msg": event.message.description,
        ]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { _, new in new }) {
            object[key] = value.description
        }
        guard var data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
        data.append(UInt8(ascii: "\n"))
        FileHandle.standardError.write(data)
    }
}
