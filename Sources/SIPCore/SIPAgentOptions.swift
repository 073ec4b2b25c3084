/// Tunables of the Sofia transaction agent.
public struct SIPAgentOptions: Sendable {
    /// Requests larger than this are refused with 413.
    public var maxMessageSize: Int
    /// Stream connections that no binding uses are closed after this many
    /// milliseconds without traffic. Connections of registered devices are
    /// kept open while their binding lives.
    public var idleTimeoutMilliseconds: Int
    /// How many stopped INVITE branches are answered for until Timer C
    /// (`RetiredBranches`); beyond, the oldest are forgotten early.
    var retiredBranchCapacity = RetiredBranches<RetiredBranch>.defaultCapacity

    public init(maxMessageSize: Int = 65536, idleTimeoutMilliseconds: Int = 120_000) {
        self.maxMessageSize = maxMessageSize
        self.idleTimeoutMilliseconds = idleTimeoutMilliseconds
    }
}
