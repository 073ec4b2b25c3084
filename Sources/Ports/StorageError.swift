/// Why a storage operation was refused. Each case reads as a sentence an
/// operator can act on (the CLI prints `description` as is).
public enum StorageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `UserRepository.add` for a username that already exists.
    case userExists(String)
    /// A user operation on a username that does not exist.
    case userNotFound(String)
    /// A username that is not 1...64 RFC 3261 `user` characters.
    case invalidUsername(String)
    /// An empty realm.
    case invalidRealm(String)
    /// An HA1 that is not hex of the right length. Carries the field name, never
    /// the value: a caller that passed a password by mistake must not see it logged.
    case invalidHA1(field: String)
    /// A device-tuple field (or a paging argument) that cannot be stored. Names
    /// the field and what is wrong with it, never its value: a token is a
    /// credential for pushing to someone's phone.
    case invalidField(name: String, reason: String)
    /// `TupleRepository.create` (or `update`) onto a (username, selector) that already has a tuple.
    case tupleExists(username: String, selector: String)
    /// A tuple operation on an id that does not exist.
    case tupleNotFound(id: Int64)
    /// `BindingJournal.submit` after `shutdown()`.
    case writerStopped
    /// A stored row that cannot be turned back into a model value.
    case corruptRow(table: String, detail: String)

    public var description: String {
        switch self {
        case .userExists(let username):
            return "user '\(username)' already exists"
        case .userNotFound(let username):
            return "user '\(username)' does not exist"
        case .invalidUsername(let username):
            return "invalid username '\(username)': use 1 to 64 characters among letters, digits and - _ . ! ~ * ' ( ) & = + $ , ; ? (no '@', ':' or whitespace)"
        case .invalidRealm(let realm):
            return "invalid realm '\(realm)': the realm must not be empty"
        case .invalidHA1(let field):
            return "invalid \(field): expected the lower-case hex digest computed by DigestHash, not a password"
        case .invalidField(let name, let reason):
            return "invalid \(name): \(reason)"
        case .tupleExists(let username, let selector):
            return "user '\(username)' already has a device tuple with selector '\(selector)'"
        case .tupleNotFound(let id):
            return "no device tuple with id \(id)"
        case .writerStopped:
            return "the binding writer has been shut down and accepts no more writes"
        case .corruptRow(let table, let detail):
            return "unreadable row in table '\(table)': \(detail)"
        }
    }
}
