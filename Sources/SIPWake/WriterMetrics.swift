import Metrics
import StorageSupport

/// A database writer thread's batches as metrics, labelled `writer`
/// (`bindings`, `call-records`): how many submissions each batch took
/// (`sipwake_writer_queue_depth`, what was waiting when the thread got to
/// it) and how long the batch's write and commit took
/// (`sipwake_writer_batch_seconds`).
struct WriterMetrics {
    let depth: Gauge
    let batch: Metrics.Timer

    init(writer: String, factory: any MetricsFactory) {
        depth = Gauge(label: "sipwake_writer_queue_depth", dimensions: [("writer", writer)], factory: factory)
        batch = Metrics.Timer(label: "sipwake_writer_batch_seconds", dimensions: [("writer", writer)], factory: factory)
    }

    var observer: WriterBatchObserver {
        let depth = self.depth, batch = self.batch
        return { submissions, duration in
            depth.record(submissions)
            batch.record(duration: duration)
        }
    }
}
