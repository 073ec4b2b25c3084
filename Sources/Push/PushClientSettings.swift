/// How ``PushClient`` reaches the push gateway.
public struct PushClientSettings: Sendable, Equatable {
    /// The gateway's send endpoint.
    public var gatewayURL: String
    /// Longest time one push may take, connection included, in seconds.
    public var timeout: Double
    /// Longest time to set up a connection to the gateway, in seconds.
    public var connectTimeout: Double
    /// Most connections open to the gateway at once; more pushes wait for a free one
    /// (or share one when the gateway speaks HTTP/2).
    public var maxConnections: Int
    /// PEM file of the certificate authorities to trust instead of the system's.
    public var caFile: String?

    public init(gatewayURL: String = "https://pnm.cloudsoftphone.com/pnm2/send", timeout: Double = 5,
                connectTimeout: Double = 2, maxConnections: Int = 16, caFile: String? = nil) {
        self.gatewayURL = gatewayURL
        self.timeout = timeout
        self.connectTimeout = connectTimeout
        self.maxConnections = maxConnections
        self.caFile = caFile
    }
}
