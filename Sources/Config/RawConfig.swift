/// Values found in the file and the environment, by key path, with where each came from.
/// Keys absent here take their default.
struct RawConfig: Sendable {
    private(set) var values: [String: ConfigValue] = [:]
    private(set) var sources: [String: ConfigValueSource] = [:]
    /// The `[apps.NAME]` tables, in file order.
    var apps: [RawApp] = []
    /// The `[webhook.domains."NAME"]` tables, in file order.
    var webhookDomains: [RawWebhookDomain] = []

    mutating func set(_ key: ConfigKey, _ value: ConfigValue, from source: ConfigValueSource) {
        values[key.path] = value
        sources[key.path] = source
    }

    func value(_ key: ConfigKey) -> ConfigValue? { values[key.path] }

    func source(_ key: ConfigKey) -> ConfigValueSource { sources[key.path] ?? .defaultValue }
}
