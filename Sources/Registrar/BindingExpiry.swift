import Foundation
import Model

/// When one binding falls due, as the location table's expiry heap holds it.
///
/// Entries are never updated in place: a refresh pushes a new entry and the
/// old one becomes stale. The table recognises a stale entry when it pops it
/// (the binding is gone or now expires at another time) and skips it.
/// Entries order, and compare equal, by expiry time alone: that is all the
/// heap needs, and which of two bindings due at the same instant goes first
/// does not matter.
struct BindingExpiry: Comparable {
    var expiresAt: Date
    var aor: String
    var key: BindingKey

    static func < (lhs: BindingExpiry, rhs: BindingExpiry) -> Bool { lhs.expiresAt < rhs.expiresAt }
    static func == (lhs: BindingExpiry, rhs: BindingExpiry) -> Bool { lhs.expiresAt == rhs.expiresAt }
}
