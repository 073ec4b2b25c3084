/// `[database]`: the SQLite file.
public struct DatabaseSection: Sendable, Hashable {
    /// The SQLite file. After loading it is absolute (a relative path in the file is
    /// resolved against the directory holding the config file), or ":memory:".
    public var path: String
    /// Most writes committed in one transaction by the group committer (1...100000).
    public var groupCommitMaxBatch: Int

    public init(path: String = "../var/sipwake.sqlite", groupCommitMaxBatch: Int = 1024) {
        self.path = path
        self.groupCommitMaxBatch = groupCommitMaxBatch
    }
}
