import Foundation

/// A binding the operator deleted from the store while the server may hold
/// it in memory (`BindingRepository.deletions(after:limit:)`). The server
/// drops its binding of that key unless the device refreshed it after the
/// deleted version.
public struct BindingDeletion: Sendable, Hashable {
    public var aor: String
    public var key: BindingKey
    /// `updatedAt` of the version that was deleted.
    public var updatedAt: Date

    public init(aor: String, key: BindingKey, updatedAt: Date) {
        self.aor = aor
        self.key = key
        self.updatedAt = updatedAt
    }

    /// True when `binding` is the deleted binding, or an older version of it
    /// (not one the device refreshed after the delete). Dates go through the
    /// database as seconds in a Double, so a millisecond of slack.
    public func covers(_ binding: Binding) -> Bool {
        binding.aor == aor && binding.key == key
            && binding.updatedAt.timeIntervalSince1970 <= updatedAt.timeIntervalSince1970 + 0.001
    }
}
