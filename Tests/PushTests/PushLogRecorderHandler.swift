import Logging

/// Hands every log event, with its metadata, to a `PushLogRecorder`.
struct PushLogRecorderHandler: LogHandler {
    let recorder: PushLogRecorder
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let fields = (event.metadata ?? [:]).map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " ")
        recorder.record("\(event.level): \(event.message) \(fields)")
    }
}
