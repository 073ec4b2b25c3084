/// What changed in the device tuples after a point of the store's change
/// feed (`TupleRepository.changes(after:limit:)`): whose tuples were
/// written, up to which change. A reader that keeps tuples in memory
/// re-reads those users, then asks again from `through`.
public struct TupleChanges: Sendable, Equatable {
    /// The users whose tuples were added, changed or deleted.
    public var usernames: Set<String>
    /// The last change these cover: the next read starts after it.
    public var through: Int64
    /// True when the changes after the asked point are no longer all known
    /// (the feed keeps only its latest changes), or the point is ahead of
    /// the feed: everything must be read again. `usernames` is empty then.
    public var missed: Bool
    /// True when more changes follow `through` than this read returned.
    public var more: Bool

    public init(usernames: Set<String>, through: Int64, missed: Bool, more: Bool) {
        self.usernames = usernames
        self.through = through
        self.missed = missed
        self.more = more
    }
}
