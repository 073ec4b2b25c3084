import Ports

/// How sipwake reaches the Acrobits push gateway (`[push]` in sipwake.toml).
public struct AcrobitsSettings: Sendable, Equatable {
    /// The gateway's send endpoint.
    public var gatewayURL: String
    /// Header lines sent with every push besides the JSON content type.
    public var extraHeaders: [PushHTTPHeader]

    public init(gatewayURL: String = "https://pnm.cloudsoftphone.com/pnm2/send", extraHeaders: [PushHTTPHeader] = []) {
        self.gatewayURL = gatewayURL
        self.extraHeaders = extraHeaders
    }
}
