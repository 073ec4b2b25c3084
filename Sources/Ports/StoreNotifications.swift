/// A shared store's announcements of its commits: how each node's caches
/// (the location table, the credentials, the device-tuple index) learn at
/// once what other processes wrote. Every reader also reads on a timer, so
/// a notification lost while a connection is down costs one period.
/// A store one process owns (SQLite) has none: its readers poll.
public protocol StoreNotifications: Sendable {
    /// Calls `changed` for each change another process may have committed,
    /// until cancelled. Once listening (and again after a lost connection
    /// is back), it calls `changed` with every kind, since commits made in
    /// between were not announced to it. Each time the listening fails (the
    /// connection cannot be opened or is lost) it calls `failed` and tries
    /// again a second later.
    func listen(_ changed: @escaping @Sendable (StoreChange) -> Void,
                failed: @escaping @Sendable (any Error) async -> Void) async
}
