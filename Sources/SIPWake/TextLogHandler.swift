import Foundation
import Logging

/// One readable line per event on standard error, the message before its
/// metadata so that a reader scanning the log reads what happened first:
///
///     2026-11-27T18:25:01+0000 warning sipwake: [SIPWake] digest authentication failed client.address=203.0.113.7 sip.method=REGISTER sip.user=alice
///
/// Metadata keys are sorted, so a line's shape depends only on its keys
/// (what the fail2ban filter in etc/fail2ban relies on).
public struct TextLogHandler: LogHandler {
    /// A level set on this handler alone; else the shared one.
    private var ownLevel: Logger.Level?
    private let sharedLevel: LogLevelControl?
    public var logLevel: Logger.Level {
        get { ownLevel ?? sharedLevel?.level ?? .info }
        set { ownLevel = newValue }
    }
    public var metadata: Logger.Metadata = [:]
    private let label: String
    private let write: @Sendable (String) -> Void

    /// `write` receives each line with its newline; standard error by default.
    /// `level`, when given, is the level to filter at until one is set on the handler.
    public init(label: String, level: LogLevelControl? = nil,
                write: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }) {
        sharedLevel = level
        self.label = label
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var line = "\(Self.timestamp()) \(event.level) \(label): [\(event.source)] \(event.message)"
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        for (key, value) in merged.sorted(by: { $0.key < $1.key }) {
            line += " \(key)=\(value)"
        }
        write(line + "\n")
    }

    /// Local time to the second with its offset, as `%Y-%m-%dT%H:%M:%S%z`.
    static func timestamp() -> String {
        var now = time(nil)
        var local = tm()
        localtime_r(&now, &local)
        var buffer = [Int8](repeating: 0, count: 32)
        let length = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &local)
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
