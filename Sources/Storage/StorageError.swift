/// Why a storage operation was refused. Each case reads as a sentence an
/// operator can act on (the CLI prints `description` as is).
public enum StorageError: Error, Equatable, CustomStringConvertible {
    /// `UserStore.add` for a username that already exists.
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
    /// `BindingWriter.submit` after `shutdown()`.
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
        case .writerStopped:
            return "the binding writer has been shut down and accepts no more writes"
        case .corruptRow(let table, let detail):
            return "unreadable row in table '\(table)': \(detail)"
        }
    }
}
