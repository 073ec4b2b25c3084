import Model
import Ports

/// One `BindingWriter.submit` call waiting for the writer thread.
struct PendingBindingWrite: Sendable {
    var changes: [BindingChange]
    var completion: @Sendable (Result<Void, Error>) -> Void
}
