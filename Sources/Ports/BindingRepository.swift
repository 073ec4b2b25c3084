import Foundation
import Model

/// The registrations as saved: what the registrar reloads at start and the
/// operator lists. Changes are written through a `BindingJournal`.
public protocol BindingRepository: Sendable {
    /// Every saved binding, expired ones included (the registrar drops those
    /// on load), ordered by AOR then last update.
    func loadAll() throws -> [Binding]
    /// The bindings of one AOR (case-insensitive), or of all when nil.
    func list(aor: String?) throws -> [Binding]
    /// How many bindings are saved, expired or not.
    func count() throws -> Int
    /// Deletes bindings that expired at or before `date`; returns how many.
    func deleteExpired(before date: Date) throws -> Int
    /// Deletes the binding of `aor` (case-insensitive) whose Contact URI is
    /// `contact` (scheme and host compared case-insensitively); false when
    /// there is none. The deletion joins the deletion feed.
    func delete(aor: String, contact: String) throws -> Bool
    /// Deletes every binding of `aor` (case-insensitive); returns how many.
    /// The deletions join the deletion feed.
    func deleteAll(aor: String) throws -> Int
    /// The latest entry of the deletion feed, 0 when it is empty.
    func deletionsHead() throws -> Int64
    /// The deletions after `seq`, at most `limit`, oldest first.
    func deletions(after seq: Int64, limit: Int) throws -> BindingDeletions
}
