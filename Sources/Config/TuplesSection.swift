/// `[tuples]`: the device tuples apps report.
public struct TuplesSection: Sendable, Hashable {
    /// Tuples not reported again for this many days are purged (0 = never, 0...3650).
    /// Apps report at every start and an uninstall sends no removal, so this is
    /// how tuples of uninstalled apps go away.
    public var staleAfterDays: Int

    public init(staleAfterDays: Int = 30) {
        self.staleAfterDays = staleAfterDays
    }
}
