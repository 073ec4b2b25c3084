/// `[webhook]`: the customer's backend, told of every call to a user with
/// the wake-up hold (a signed JSON event it answers 2xx when it is waking
/// the user's devices, 404 when it knows none), and of how the call ended.
/// One webhook for every domain, and `[webhook.domains."NAME"]` overrides
/// for some (docs/push.md).
///
/// Its description never shows the secrets.
public struct WebhookSection: Sendable, Hashable, CustomStringConvertible {
    /// The URL events are posted to (http or https); "" = no webhook but the domains' own.
    public var url: String
    /// The signing secrets, current first, at most two (a rotation): each
    /// at least ``minimumSecretLength`` characters.
    public var secrets: [String]
    /// Seconds the backend may take to answer before the event counts as
    /// failed and is retried (1...30).
    public var timeout: Int
    /// Per-domain overrides, in file order.
    public var domains: [WebhookDomainSection]

    /// The shortest secret accepted: 32 characters (`openssl rand -hex 32` gives 64).
    public static let minimumSecretLength = 32
    /// Two secrets are valid at once while one replaces the other.
    public static let maximumSecrets = 2

    public init(url: String = "", secrets: [String] = [], timeout: Int = 5, domains: [WebhookDomainSection] = []) {
        self.url = url
        self.secrets = secrets
        self.timeout = timeout
        self.domains = domains
    }

    /// Whether any domain has a webhook.
    public var isConfigured: Bool {
        !url.isEmpty || domains.contains { !($0.url ?? url).isEmpty }
    }

    public var description: String {
        "WebhookSection(url: \(url), secrets: \(secrets.count) hidden, timeout: \(timeout), domains: \(domains))"
    }
}
