/// What one transport carried during a run.
public struct TransportCounts: Sendable, Equatable {
    public var inputs = 0
    public var bytesSent = 0
    public var responses = 0
    public var bytesReceived = 0
    /// TCP/TLS connections opened (UDP: 0).
    public var connections = 0
    public var connectFailures = 0
    /// Writes that failed or timed out (the server stopped reading).
    public var writeFailures = 0
    /// Connections the server closed or reset.
    public var closedByServer = 0

    public init() {}
}
