/// What a `BatchingWriter` queues: submissions go in one at a time, and its
/// thread takes them out a batch at a time.
protocol PendingWrites: Sendable {
    associatedtype Submission: Sendable
    associatedtype Batch: Sendable

    var isEmpty: Bool { get }
    mutating func append(_ submission: Submission)
    /// Removes the next batch (called only when not empty) and says how many
    /// submissions it carries, so a flush knows when its own are done.
    mutating func takeBatch() -> (batch: Batch, submissions: Int)
}
