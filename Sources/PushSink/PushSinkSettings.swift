/// Where the push sink listens, where it writes what it receives, how it
/// answers, and what it checks when it plays APNs, FCM and Google's OAuth
/// endpoint.
public struct PushSinkSettings: Sendable, Equatable {
    public var host: String
    /// 0 picks a free port; ``PushSink/boundPort`` tells which.
    public var port: Int
    /// The Acrobits send path; pushes to any path under `/pnm2/` are taken too.
    public var path: String
    /// A file to append one JSON line per request to, `-` for standard
    /// output, nil for no lines.
    public var output: String?
    /// Rules for particular device tokens, whichever provider the push is for.
    public var rules: [String: PushSinkRule]
    /// The rule for every other token.
    public var defaultRule: PushSinkRule
    /// Serve HTTPS (HTTP/2 and HTTP/1.1 by ALPN) with these files; nil serves
    /// plain HTTP/1.1.
    public var tls: PushSinkTLSFiles?
    /// What `POST /3/device/TOKEN` checks.
    public var apns: PushSinkAPNsSettings
    /// What `POST /v1/projects/P/messages:send` and `POST /token` check.
    public var fcm: PushSinkFCMSettings
    /// Seconds sent in a `Retry-After` header with APNs' and FCM's 429 and 503
    /// answers; nil sends none.
    public var retryAfter: Int?
    /// What `POST /webhook` (a customer's backend) checks.
    public var webhook: PushSinkWebhookSettings

    public init(host: String = "127.0.0.1", port: Int = 8090, path: String = "/pnm2/send", output: String? = nil,
                rules: [String: PushSinkRule] = [:], defaultRule: PushSinkRule = .ok, tls: PushSinkTLSFiles? = nil,
                apns: PushSinkAPNsSettings = PushSinkAPNsSettings(), fcm: PushSinkFCMSettings = PushSinkFCMSettings(),
                retryAfter: Int? = nil, webhook: PushSinkWebhookSettings = PushSinkWebhookSettings()) {
        self.host = host
        self.port = port
        self.path = path
        self.output = output
        self.rules = rules
        self.defaultRule = defaultRule
        self.tls = tls
        self.apns = apns
        self.fcm = fcm
        self.retryAfter = retryAfter
        self.webhook = webhook
    }

    /// `https` with TLS, else `http`.
    public var scheme: String { tls == nil ? "http" : "https" }
}
