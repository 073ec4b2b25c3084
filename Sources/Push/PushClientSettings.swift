/// How ``PushClient`` reaches the push providers.
public struct PushClientSettings: Sendable, Equatable {
    /// Longest time one push may take, connection included, in seconds.
    public var timeout: Double
    /// Longest time to set up a connection to a provider, in seconds.
    public var connectTimeout: Double
    /// Most connections open to one provider host at once; more pushes wait
    /// for a free one (or share one when the provider speaks HTTP/2).
    public var maxConnections: Int
    /// PEM file of the certificate authorities to trust instead of the system's.
    public var caFile: String?

    public init(timeout: Double = 5, connectTimeout: Double = 2, maxConnections: Int = 16, caFile: String? = nil) {
        self.timeout = timeout
        self.connectTimeout = connectTimeout
        self.maxConnections = maxConnections
        self.caFile = caFile
    }
}
