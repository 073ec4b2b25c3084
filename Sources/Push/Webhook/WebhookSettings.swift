/// The customer webhooks sipwake posts call events to: one for every
/// domain it serves, and overrides for some domains (one of which may
/// switch the webhook off for its domain).
public struct WebhookSettings: Sendable, Equatable {
    /// The webhook of every domain without an override; nil when there is none.
    public var global: WebhookEndpoint?
    /// Per domain (lowercased): its own webhook, or nil for none at all.
    public var domains: [String: WebhookEndpoint?]

    public init(global: WebhookEndpoint?, domains: [String: WebhookEndpoint?] = [:]) {
        self.global = global
        self.domains = domains
    }

    /// The webhook of calls to users of `account` (the called domain); nil when it has none.
    public func endpoint(forAccount account: String) -> WebhookEndpoint? {
        if let override = domains[account.lowercased()] { return override }
        return global
    }

    /// Whether any domain has a webhook.
    public var isEmpty: Bool {
        global == nil && domains.values.allSatisfy { $0 == nil }
    }
}
