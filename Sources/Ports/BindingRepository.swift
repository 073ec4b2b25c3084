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
}
