import Config
import Foundation

/// The push providers a server wakes phones through, for its start-up line:
/// `acrobits-gateway:pnm.cloudsoftphone.com,apns:phone-ios,fcm:phone-android`,
/// `none`, or `off`. Only hosts are named: a URL's path or query may carry a
/// credential.
enum PushProvidersSummary {
    static func describe(_ config: SipwakeConfig) -> String {
        guard config.push.enabled else { return "off" }
        var providers: [String] = []
        if !config.push.gatewayURL.isEmpty {
            providers.append("acrobits-gateway:\(host(config.push.gatewayURL))")
        }
        providers += config.apps.map { "\($0.provider.rawValue):\($0.name)" }
        if config.webhook.isConfigured {
            let urls = ([config.webhook.url] + config.webhook.domains.compactMap(\.url)).filter { !$0.isEmpty }
            providers += Set(urls.map(host)).sorted().map { "webhook:\($0)" }
        }
        return providers.isEmpty ? "none" : providers.joined(separator: ",")
    }

    private static func host(_ url: String) -> String {
        URLComponents(string: url)?.host ?? "?"
    }
}
