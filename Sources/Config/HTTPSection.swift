/// `[http]`: the Push Token Reporter endpoints and the admin API.
public struct HTTPSection: Sendable, Hashable {
    /// Where the HTTP server listens; nil = no HTTP server.
    public var listen: HTTPListenAddress?
    /// Bearer token of the admin API; "" = the admin API is off.
    public var adminToken: String
    /// Largest request body accepted, in bytes (1024...1048576).
    public var maxBodySize: Int
    /// Failed reporter logins for one user from one address allowed per minute (1...10000).
    public var failedLoginsPerMinute: Int
    /// Wrong admin bearer tokens from one address allowed per minute (1...10000).
    public var adminFailuresPerMinute: Int

    public init(listen: HTTPListenAddress? = HTTPListenAddress(host: "127.0.0.1", port: 8080), adminToken: String = "",
                maxBodySize: Int = 16384, failedLoginsPerMinute: Int = 10, adminFailuresPerMinute: Int = 5) {
        self.listen = listen
        self.adminToken = adminToken
        self.maxBodySize = maxBodySize
        self.failedLoginsPerMinute = failedLoginsPerMinute
        self.adminFailuresPerMinute = adminFailuresPerMinute
    }
}
