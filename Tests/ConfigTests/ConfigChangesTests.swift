import Testing
@testable import Config

/// What a reload compares: the keys that differ, named as in sipwake.toml.
@Suite struct ConfigChangesTests {
    func parse(_ text: String) throws -> SipwakeConfig {
        try SipwakeConfig.parse(text, file: ConfigTestSupport.file, environment: [:])
    }

    @Test func equalConfigurationsHaveNoChanges() throws {
        let text = "[sip]\nlisten = [\"udp:127.0.0.1:5060\"]\n[push]\ngateway_url = \"https://gw.example/pnm2/send\"\n"
        #expect(ConfigChanges.keys(from: try parse(text), to: try parse(text)) == [])
    }

    @Test func eachChangedKeyIsNamedAsInTheFile() throws {
        let old = try parse("""
            [sip]
            listen = ["udp:127.0.0.1:5060"]
            [auth]
            max_failures_per_source = 10
            [push]
            gateway_url = "https://gw.example/pnm2/send"
            [log]
            level = "info"
            """)
        let new = try parse("""
            [sip]
            listen = ["udp:127.0.0.1:5070"]
            [auth]
            max_failures_per_source = 20
            [push]
            gateway_url = "https://other.example/pnm2/send"
            [log]
            level = "debug"
            [webhook]
            url = "https://pbx.example/hook"
            secrets = ["a-long-enough-webhook-secret-1234"]
            """)
        #expect(ConfigChanges.keys(from: old, to: new) == [
            "auth.max_failures_per_source", "log.level", "push.gateway_url", "sip.listen", "webhook.secrets", "webhook.url",
        ])
    }

    @Test func everyNameAReloadCanReportIsAKeyOfTheFile() {
        // A section's stored properties, named as ConfigChanges names them,
        // must be the schema's keys (or values derived from them).
        let derived: Set<String> = ["auth.default_realm", "webhook.domains"]
        let schema = Set(ConfigSchema.keys.map { "\($0.section).\($0.name)" })
        for section in Mirror(reflecting: SipwakeConfig.defaults).children {
            guard let name = section.label, name != "apps" else { continue }
            for key in Mirror(reflecting: section.value).children {
                guard let label = key.label else { continue }
                let full = "\(ConfigChanges.snakeCase(name)).\(ConfigChanges.snakeCase(label))"
                #expect(schema.contains(full) || derived.contains(full), "\(full) is not a key of sipwake.toml")
            }
        }
    }

    @Test func namesAreSnakeCasedLikeTheFile() {
        #expect(ConfigChanges.snakeCase("gatewayURL") == "gateway_url")
        #expect(ConfigChanges.snakeCase("maxBindingsPerAOR") == "max_bindings_per_aor")
        #expect(ConfigChanges.snakeCase("pairingID") == "pairing_id")
        #expect(ConfigChanges.snakeCase("caFile") == "ca_file")
        #expect(ConfigChanges.snakeCase("listen") == "listen")
    }
}
