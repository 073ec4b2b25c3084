import ArgumentParser
import Config

struct ConfigCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check", abstract: "Validate a config file (and SIPWAKE_* overrides); exit 1 on any error.")

    @OptionGroup var options: ConfigOption

    func run() throws {
        let (config, pushApps) = try options.loadWithPushApps()
        print("ok: \(try options.absolutePath())")
        print("sip: \(config.sip.listen.map(\.description).joined(separator: ", ")); domains \(config.sip.domains.joined(separator: ", ")); database \(config.database.displayName)")
        let gateway = config.push.gatewayURL.isEmpty ? "no Acrobits gateway" : "Acrobits gateway \(config.push.gatewayURL)"
        let apps = config.apps.map { app in
            var parts = ["\(app.appID): \(app.provider.rawValue)", app.format.rawValue]
            if !app.missed.enabled { parts.append("missed off") }
            if !app.answeredElsewhere.enabled { parts.append("answered-elsewhere off") }
            return "\(app.name) (\(parts.joined(separator: ", ")))"
        }
        print("push: \(config.push.enabled ? "on" : "off"); \(gateway); apps: \(apps.isEmpty ? "none" : apps.joined(separator: ", "))")
        if config.webhook.isConfigured {
            // URLs and secret counts only: secrets are never printed.
            var parts = [config.webhook.url.isEmpty ? "none by default"
                         : "\(config.webhook.url) (\(config.webhook.secrets.count) secret(s), \(config.webhook.timeout) s)"]
            for domain in config.webhook.domains {
                let url = domain.url ?? config.webhook.url
                parts.append("\(domain.domain): \(url.isEmpty ? "off" : url)")
            }
            print("webhook: \(parts.joined(separator: "; "))")
        }
        _ = pushApps
    }
}
