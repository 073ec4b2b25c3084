import Model

/// What the call-record writer needs from a database adapter.
public protocol CallRecordBatchStore: Sendable {
    /// Writes rows encoded by `CallRecordRow.encoded(_:)` in ONE transaction,
    /// with each row's push results on their device tuples.
    func write(_ rows: [CallRecordRow]) throws
    /// Gives each answered call a BYE ended its hang-up, in one transaction;
    /// returns how many records changed.
    func hangUp(_ byes: [CallHangUp]) throws -> Int
    /// Whether `error` comes from one row's data rather than the database.
    func isCausedByTheData(_ error: Error) -> Bool
}
