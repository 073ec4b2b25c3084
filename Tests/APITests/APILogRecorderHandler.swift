import Logging

/// Hands every log event, its metadata flattened to strings, to an `APILogRecorder`.
struct APILogRecorderHandler: LogHandler {
    let recorder: APILogRecorder
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        recorder.record(.init(level: event.level, message: "\(event.message)",
                              metadata: merged.mapValues { "\($0)" }))
    }
}
