import Model

/// The binding changes every node sharing one store commits, for the other
/// nodes: a call pending on node A forks to a phone that registered on node
/// B once B's commit is announced. A store shared by several nodes (PostgreSQL)
/// offers it; a store one process owns (SQLite) does not need it.
///
/// Every `BindingJournal` commit of a store with a feed appends one event per
/// change, in the commit's transaction, tagged with `node`. The store's
/// `StoreNotifications` announce each such commit as `.bindings`.
public protocol BindingEventFeed: Sendable {
    /// This process's node id, as its events carry it.
    var node: String { get }
    /// The latest event, 0 when there is none.
    func head() throws -> Int64
    /// The events after `seq`, at most `limit`, oldest first.
    func events(after seq: Int64, limit: Int) throws -> BindingEvents
}
