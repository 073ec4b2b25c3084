/// `[webhook.domains."NAME"]`: one served domain's own webhook, overriding
/// `[webhook]` for calls to its users. A key left out takes `[webhook]`'s
/// value; `url = ""` switches the webhook off for the domain.
///
/// Its description never shows the secrets.
public struct WebhookDomainSection: Sendable, Hashable, CustomStringConvertible {
    /// The domain, lowercased, as `[sip] domains` lists it.
    public var domain: String
    public var url: String?
    public var secrets: [String]?
    public var timeout: Int?

    public init(domain: String, url: String? = nil, secrets: [String]? = nil, timeout: Int? = nil) {
        self.domain = domain
        self.url = url
        self.secrets = secrets
        self.timeout = timeout
    }

    public var description: String {
        let secretsText = secrets.map { "\($0.count) hidden" } ?? "inherited"
        return "WebhookDomainSection(domain: \(domain), url: \(url ?? "inherited"), secrets: \(secretsText), timeout: \(timeout.map(String.init) ?? "inherited"))"
    }
}
