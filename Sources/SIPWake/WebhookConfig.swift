import Config
import Push

/// The customer webhooks of the configuration (`[webhook]` and its
/// per-domain overrides) as the push client and the call proxy use them.
enum WebhookConfig {
    /// Nil when no domain has a webhook.
    static func settings(_ section: WebhookSection) -> WebhookSettings? {
        guard section.isConfigured else { return nil }
        let timeout = Double(section.timeout)
        let global = section.url.isEmpty ? nil : WebhookEndpoint(url: section.url, secrets: section.secrets, timeout: timeout)
        var domains: [String: WebhookEndpoint?] = [:]
        for domain in section.domains {
            let url = domain.url ?? section.url
            domains[domain.domain] = url.isEmpty ? WebhookEndpoint?.none : WebhookEndpoint(
                url: url, secrets: domain.secrets ?? section.secrets,
                timeout: domain.timeout.map(Double.init) ?? timeout)
        }
        return WebhookSettings(global: global, domains: domains)
    }
}
