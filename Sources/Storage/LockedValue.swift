import Foundation

/// A value behind a lock, for the little mutable state of otherwise immutable
/// `Sendable` classes.
///
/// `@unchecked Sendable` is safe here because `value` is `private` and the only
/// access to it is `withValue`, which holds `lock` for the whole access: no two
/// threads ever read or write `value` at the same time. `T: Sendable` makes
/// the values handed in and out safe to move between threads.
final class LockedValue<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: T

    init(_ value: T) {
        self.value = value
    }

    func withValue<R>(_ body: (inout T) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
