/// Where one account's call events are posted (`[webhook]`, or a domain's
/// `[webhook.domains."NAME"]`), with the secrets that sign them and how long
/// the backend may take to answer.
///
/// Its description never shows the secrets.
public struct WebhookEndpoint: Sendable, Equatable, CustomStringConvertible {
    /// An http:// or https:// URL.
    public var url: String
    /// The signing secrets, current first. Every request is signed with each
    /// (one `v1=` per secret in the signature header), so a backend holding
    /// either the new or the previous secret accepts it while they rotate.
    public var secrets: [String]
    /// Longest time one request may take, connection included, in seconds.
    public var timeout: Double

    public init(url: String, secrets: [String], timeout: Double = 5) {
        self.url = url
        self.secrets = secrets
        self.timeout = timeout
    }

    public var description: String {
        "WebhookEndpoint(url: \(url), secrets: \(secrets.count) hidden, timeout: \(timeout))"
    }
}
