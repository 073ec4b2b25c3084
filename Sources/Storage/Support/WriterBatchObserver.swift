/// Told after each batch a writer thread wrote: how many submissions it
/// took (how many were waiting when the thread got to them) and how long
/// the write took. Called on the writer thread; the owner turns it into
/// metrics, so the storage adapter needs no metrics backend.
public typealias WriterBatchObserver = @Sendable (_ submissions: Int, _ duration: Duration) -> Void
