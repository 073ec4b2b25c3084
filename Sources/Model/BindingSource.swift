/// Where a REGISTER really came from: the NAT-mapped address a request to the
/// binding has to go back to (RFC 3261 §18.2.1 `received`/`rport`, RFC 5626 flows).
public struct BindingSource: Sendable, Hashable, Codable {
    public var transport: SIPTransport
    public var host: String
    public var port: Int
    /// The live connection the REGISTER came in on, for stream transports.
    /// Only meaningful inside one running server; never persisted.
    public var connectionID: UInt64?

    public init(transport: SIPTransport, host: String, port: Int, connectionID: UInt64? = nil) {
        self.transport = transport
        self.host = host
        self.port = port
        self.connectionID = connectionID
    }
}
