/// What `RetiredBranches` needs of an entry: the Via branch it answers for
/// and when it may be forgotten.
protocol RetiredBranchEntry: AnyObject {
    /// The Via branch, lowercased.
    var branch: String { get }
    var expiresAt: ContinuousClock.Instant { get }
}
