/// A read of the binding-deletion feed after some point
/// (`BindingRepository.deletions(after:limit:)`).
public struct BindingDeletions: Sendable, Equatable {
    public var deletions: [BindingDeletion]
    /// The last entry read: the next read starts after it.
    public var through: Int64

    public init(deletions: [BindingDeletion], through: Int64) {
        self.deletions = deletions
        self.through = through
    }
}
