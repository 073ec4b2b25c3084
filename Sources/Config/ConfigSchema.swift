/// Every section and key the configuration knows, with types and integer ranges.
/// Defaults live in `SipwakeConfig.defaults`; cross-key rules in `ConfigBuilder`.
enum ConfigSchema {
    static let keys: [ConfigKey] = [
        ConfigKey(section: "sip", name: "listen", kind: .stringArray),
        ConfigKey(section: "sip", name: "domains", kind: .stringArray),
        ConfigKey(section: "sip", name: "max_message_size", kind: .integer(1024...1_048_576)),
        ConfigKey(section: "sip", name: "public_host", kind: .string),
        ConfigKey(section: "sip", name: "edge_proxies", kind: .stringArray),
        ConfigKey(section: "sip", name: "max_unauthenticated_per_source", kind: .integer(0...1_000_000)),
        ConfigKey(section: "sip", name: "max_stateless_per_second", kind: .integer(0...1_000_000)),

        ConfigKey(section: "tls", name: "certificate", kind: .string),
        ConfigKey(section: "tls", name: "key", kind: .string),

        ConfigKey(section: "registrar", name: "min_expires", kind: .integer(1...86400)),
        ConfigKey(section: "registrar", name: "max_expires", kind: .integer(1...604_800)),
        ConfigKey(section: "registrar", name: "default_expires", kind: .integer(1...604_800)),
        ConfigKey(section: "registrar", name: "max_bindings_per_aor", kind: .integer(1...1000)),
        ConfigKey(section: "registrar", name: "keepalive_interval", kind: .integer(0...3600)),
        ConfigKey(section: "registrar", name: "pn_refresh_before", kind: .integer(0...86400)),
        ConfigKey(section: "registrar", name: "pn_refresh_retries", kind: .integer(0...5)),

        ConfigKey(section: "auth", name: "enabled", kind: .boolean),
        ConfigKey(section: "auth", name: "realm", kind: .string),
        ConfigKey(section: "auth", name: "algorithms", kind: .stringArray),
        ConfigKey(section: "auth", name: "nonce_lifetime", kind: .integer(10...86400)),
        ConfigKey(section: "auth", name: "trusted_peers", kind: .stringArray),
        ConfigKey(section: "auth", name: "secret", kind: .string),
        ConfigKey(section: "auth", name: "nonce_max_uses", kind: .integer(1...1_000_000)),
        ConfigKey(section: "auth", name: "max_failures_per_source", kind: .integer(0...1_000_000)),
        ConfigKey(section: "auth", name: "max_failures_per_user", kind: .integer(1...1_000_000)),
        ConfigKey(section: "auth", name: "failure_window", kind: .integer(1...86400)),
        ConfigKey(section: "auth", name: "block_time", kind: .integer(1...86400)),

        ConfigKey(section: "database", name: "path", kind: .string),
        ConfigKey(section: "database", name: "url", kind: .string),
        ConfigKey(section: "database", name: "group_commit_max_batch", kind: .integer(1...100_000)),

        ConfigKey(section: "log", name: "level", kind: .string),
        ConfigKey(section: "log", name: "format", kind: .string),

        ConfigKey(section: "http", name: "listen", kind: .string),
        ConfigKey(section: "http", name: "admin_token", kind: .string),
        ConfigKey(section: "http", name: "max_body_size", kind: .integer(1024...1_048_576)),
        ConfigKey(section: "http", name: "failed_logins_per_minute", kind: .integer(1...10_000)),
        ConfigKey(section: "http", name: "admin_failures_per_minute", kind: .integer(1...10_000)),

        ConfigKey(section: "tuples", name: "stale_after_days", kind: .integer(0...3650)),

        ConfigKey(section: "calls", name: "wake_window", kind: .integer(1...600)),
        ConfigKey(section: "calls", name: "timeout_status", kind: .integer(400...699)),
        ConfigKey(section: "calls", name: "ringback_on_push", kind: .boolean),
        ConfigKey(section: "calls", name: "end_notification", kind: .string),
        ConfigKey(section: "calls", name: "missed_call_grace", kind: .integer(0...600)),
        ConfigKey(section: "calls", name: "pairing_id", kind: .string),
        ConfigKey(section: "calls", name: "outbound_proxy", kind: .string),
        ConfigKey(section: "calls", name: "record_retention_days", kind: .integer(0...3650)),
        ConfigKey(section: "calls", name: "rejected_records_per_minute", kind: .integer(0...100_000)),

        ConfigKey(section: "push", name: "enabled", kind: .boolean),
        ConfigKey(section: "push", name: "gateway_url", kind: .string),
        ConfigKey(section: "push", name: "timeout", kind: .integer(1...60)),
        ConfigKey(section: "push", name: "incoming_badge", kind: .integer(0...9999)),
        ConfigKey(section: "push", name: "missed_badge", kind: .integer(0...9999)),
        ConfigKey(section: "push", name: "sound", kind: .string),
        ConfigKey(section: "push", name: "ca_file", kind: .string),

        ConfigKey(section: "webhook", name: "url", kind: .string),
        ConfigKey(section: "webhook", name: "secrets", kind: .stringArray),
        ConfigKey(section: "webhook", name: "timeout", kind: .integer(1...30)),
    ]

    /// The keys of each `[webhook.domains."NAME"]` table (no environment overrides).
    static let webhookDomainKeys: [String: ConfigValueKind] = [
        "url": .string, "secrets": .stringArray, "timeout": .integer(1...30),
    ]

    /// Keys whose values are secrets: an error about them never quotes the value.
    static let secretKeyNames: Set<String> = ["secrets"]

    /// The keys of each `[apps.NAME]` table (no environment overrides).
    static let appKeys: [String: ConfigValueKind] = [
        "app_id": .string, "provider": .string, "format": .string, "template": .string, "template_file": .string,
        "key_file": .string, "key_id": .string, "team_id": .string, "bundle_id": .string, "environment": .string,
        "service_account_file": .string, "url": .string,
        "missed_notification": .boolean, "missed_title": .string, "missed_body": .string, "missed_category": .string,
        "answered_elsewhere_notification": .boolean, "answered_elsewhere_title": .string,
        "answered_elsewhere_body": .string, "answered_elsewhere_category": .string, "sound": .string,
        "pn_param": .string,
    ]

    /// Section names in file order.
    static let sections: [String] = ["sip", "tls", "registrar", "auth", "database", "log", "http", "tuples", "calls", "push", "apps",
                                     "webhook"]

    static func key(section: String, name: String) -> ConfigKey? {
        keys.first { $0.section == section && $0.name == name }
    }

    static func key(environmentVariable: String) -> ConfigKey? {
        keys.first { $0.environmentVariable == environmentVariable }
    }

    /// The known name closest to `name` when it looks like a typo of it, for "did you mean".
    static func suggestion(for name: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, editDistance(name, $0)) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(2, name.count / 3) else { return nil }
        return best.0
    }

    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
