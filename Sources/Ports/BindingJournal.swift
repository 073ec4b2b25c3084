import Model

/// Where the registrar writes its binding changes, durably and without ever
/// making the SIP loop wait: a REGISTER is answered 200 OK only from the
/// completion, that is once its changes are on disk. Implementations commit
/// many submissions together (group commit), in submission order.
public protocol BindingJournal: Sendable {
    /// Starts writing. Submissions made before wait.
    func start()
    /// Returns at once. `completion` is called after the commit, or with the
    /// error after a rollback (then none of `changes` was written), or with
    /// `StorageError.writerStopped` after `shutdown()`. It runs on the
    /// journal's own thread: hop back to your own and return.
    func submit(_ changes: [BindingChange], completion: @escaping @Sendable (Result<Void, Error>) -> Void)
    /// Stops accepting, commits what is queued, and returns once every queued
    /// completion has been called.
    func shutdown()
}
