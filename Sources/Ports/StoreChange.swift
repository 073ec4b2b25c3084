/// What another process (another node, the CLI, the admin API of another
/// node) changed in a shared store, as its notification names it: the part
/// of each node's memory to read again.
public enum StoreChange: String, Sendable, CaseIterable {
    /// Bindings committed by a registrar (`BindingEventFeed`).
    case bindings
    /// Bindings the operator deleted (`BindingRepository.deletions`).
    case bindingDeletions = "binding-deletions"
    /// Users added, changed or removed (`UserRepository.usersVersion`).
    case users
    /// Device tuples reported, changed or deleted (the tuple change feed).
    case tuples
}
