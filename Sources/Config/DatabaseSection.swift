/// `[database]`: the SQLite file (the default), or a PostgreSQL server
/// (`url`) that several nodes share.
public struct DatabaseSection: Sendable, Hashable {
    /// The PostgreSQL database, when `url` is set; nil for SQLite.
    public var url: DatabaseURL?
    /// The SQLite file. After loading it is absolute (a relative path in the file is
    /// resolved against the directory holding the config file), or ":memory:".
    public var path: String
    /// Most writes committed in one transaction by the group committer (1...100000).
    public var groupCommitMaxBatch: Int

    public init(path: String = "../var/sipwake.sqlite", url: DatabaseURL? = nil, groupCommitMaxBatch: Int = 1024) {
        self.path = path
        self.url = url
        self.groupCommitMaxBatch = groupCommitMaxBatch
    }

    /// The database as messages name it: the SQLite file's path, or
    /// `postgresql HOST:PORT/DATABASE` (never the user or the password).
    public var displayName: String {
        url.map { "postgresql \($0)" } ?? path
    }
}
