import Model

/// What the binding writer needs from a database adapter: one transaction
/// for a batch of changes, and which of its errors come from the data.
public protocol BindingBatchStore: Sendable {
    /// Writes `changes` in ONE transaction: if any fails, none is written.
    func apply(_ changes: [BindingChange]) throws
    /// Whether `error` comes from the changes themselves (a constraint, a
    /// value the database refuses, a value that cannot be encoded), so
    /// another submission of the same batch may well succeed on its own;
    /// false when the database itself failed (busy, full, unreachable).
    func isCausedByTheData(_ error: Error) -> Bool
}
