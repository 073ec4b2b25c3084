/// What `sipwake --version` prints and the start-up line names: the release
/// number and the git commit the binary was built from ("unknown" outside a
/// git checkout).
public enum SipwakeVersion {
    /// The release number; raised with each release.
    public static let number = "0.9.0"

    /// The short commit hash, read by the GitCommit plugin at build time.
    public static let commit = gitCommit

    /// `0.9.0 (commit e15281b)`.
    public static var description: String { "\(number) (commit \(commit))" }
}
