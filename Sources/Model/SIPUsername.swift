/// The user names sipwake accepts for its users: what an operator may add,
/// and what the registrar, the reporters and the logs take for one.
public enum SIPUsername {
    /// RFC 3261 §25.1 `user` characters: unreserved (alphanum, mark) and
    /// user-unreserved, ASCII only. Escapes (`%HH`) are not accepted: a
    /// username is typed by an operator, not copied from a wire URI.
    private static let characters: Set<Character> = {
        var set = Set<Character>("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        set.formUnion("-_.!~*'()")   // mark
        // user-unreserved, without `/`: RFC 3261 allows it, but it would make
        // CLI arguments and log lines ambiguous, so sipwake leaves it out.
        set.formUnion("&=+$,;?")
        return set
    }()

    /// Whether `username` is acceptable: 1...64 characters among letters,
    /// digits and `- _ . ! ~ * ' ( ) & = + $ , ; ?` (so no '@', ':' or whitespace).
    public static func isValid(_ username: String) -> Bool {
        (1...64).contains(username.count) && username.allSatisfy { characters.contains($0) }
    }
}
