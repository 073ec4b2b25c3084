/// Tunables of the Sofia transaction agent.
public struct SIPAgentOptions: Sendable {
    /// Requests larger than this are refused with 413.
    public var maxMessageSize: Int
    /// Idle stream connections are closed after this many milliseconds; nil keeps Sofia's default.
    public var idleTimeoutMilliseconds: Int?

    public init(maxMessageSize: Int = 65536, idleTimeoutMilliseconds: Int? = nil) {
        self.maxMessageSize = maxMessageSize
        self.idleTimeoutMilliseconds = idleTimeoutMilliseconds
    }
}
