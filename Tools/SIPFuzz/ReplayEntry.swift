/// What happened to one replayed file.
public struct ReplayEntry: Sendable {
    public let name: String
    public let transport: FuzzTransport
    public let bytes: Int
    /// First lines of the responses that came back within the wait.
    public var responses: [String] = []
    public var closedByServer = false
    /// The connection could not be opened or the write failed.
    public var sendFailed = false

    public init(name: String, transport: FuzzTransport, bytes: Int) {
        self.name = name
        self.transport = transport
        self.bytes = bytes
    }
}
