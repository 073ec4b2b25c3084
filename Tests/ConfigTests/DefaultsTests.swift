import Testing
import Config

@Suite struct DefaultsTests {
    @Test func emptyFileGivesTheDefaults() throws {
        let config = try SipwakeConfig.parse("", file: ConfigTestSupport.file, environment: [:])
        var expected = SipwakeConfig.defaults
        expected.database.path = "/srv/sipwake/var/sipwake.sqlite"
        #expect(config == expected)
    }

    @Test func defaultsAreTheDocumentedValues() {
        let defaults = SipwakeConfig.defaults
        #expect(defaults.sip.listen == [
            ListenAddress(transport: .udp, host: "127.0.0.1", port: 5060),
            ListenAddress(transport: .tcp, host: "127.0.0.1", port: 5060),
        ])
        #expect(defaults.sip.domains == ["localhost", "127.0.0.1"])
        #expect(defaults.sip.maxMessageSize == 65536)
        #expect(defaults.sip.publicHost == "")
        #expect(defaults.tls == TLSSection(certificate: "", key: ""))
        #expect(!defaults.tls.isConfigured)
        #expect(defaults.registrar == RegistrarSection(minExpires: 60, maxExpires: 3600, defaultExpires: 3600, maxBindingsPerAOR: 10))
        #expect(defaults.registrar.pnRefreshBefore == 120)
        #expect(defaults.registrar.pnRefreshRetries == 2)
        #expect(defaults.auth.enabled)
        #expect(defaults.auth.realm == "")
        #expect(defaults.auth.effectiveRealm == "localhost")
        #expect(defaults.auth.algorithms == ["MD5", "SHA-256"])
        #expect(defaults.auth.nonceLifetime == 300)
        #expect(defaults.auth.trustedPeers.isEmpty)
        #expect(defaults.auth.secret == "")
        #expect(defaults.database == DatabaseSection(path: "../var/sipwake.sqlite", groupCommitMaxBatch: 1024))
        #expect(defaults.log == LogSection(level: .info, format: .text))
    }

    @Test func emptySectionsGiveTheDefaultsToo() throws {
        let config = try SipwakeConfig.parse(
            "[sip]\n[tls]\n[registrar]\n[auth]\n[database]\n[log]\n", file: ConfigTestSupport.file, environment: [:])
        #expect(config == (try SipwakeConfig.parse("", file: ConfigTestSupport.file, environment: [:])))
    }

    @Test func realmDefaultsToTheFirstDomain() throws {
        let config = try SipwakeConfig.parse(
            "[sip]\ndomains = [\"Sip.Example.com\", \"example.com\"]\n", file: ConfigTestSupport.file, environment: [:])
        #expect(config.sip.domains == ["sip.example.com", "example.com"])
        #expect(config.auth.realm == "")
        #expect(config.auth.effectiveRealm == "sip.example.com")

        let explicit = try SipwakeConfig.parse(
            "[sip]\ndomains = [\"example.com\"]\n[auth]\nrealm = \"sipwake\"\n", file: ConfigTestSupport.file, environment: [:])
        #expect(explicit.auth.effectiveRealm == "sipwake")
    }

    @Test func fullValidFile() throws {
        let config = try SipwakeConfig.parse("""
            [sip]
            listen = ["udp:0.0.0.0:5060", "tcp:[::]:5060"]
            domains = ["example.com", "2001:db8::1"]
            max_message_size = 1024
            public_host = "sip.example.com"

            [registrar]
            min_expires = 1
            max_expires = 86400
            default_expires = 1
            max_bindings_per_aor = 1000
            keepalive_interval = 3600
            pn_refresh_before = 86400
            pn_refresh_retries = 5

            [auth]
            enabled = false
            algorithms = ["sha-256", "md5"]
            nonce_lifetime = 86400
            trusted_peers = ["10.0.0.0/8"]
            secret = "0123456789abcdef"

            [database]
            path = "state/sipwake.sqlite"
            group_commit_max_batch = 100000

            [log]
            level = "critical"
            format = "json"
            """, file: "/etc/sipwake/sipwake.toml", environment: [:])
        #expect(config.sip.listen.map(\.description) == ["udp:0.0.0.0:5060", "tcp:[::]:5060"])
        #expect(config.sip.domains == ["example.com", "[2001:db8::1]"])
        #expect(config.sip.maxMessageSize == 1024)
        #expect(config.sip.publicHost == "sip.example.com")
        #expect(config.registrar == RegistrarSection(minExpires: 1, maxExpires: 86400, defaultExpires: 1, maxBindingsPerAOR: 1000,
                                                     keepaliveInterval: 3600, pnRefreshBefore: 86400, pnRefreshRetries: 5))
        #expect(config.auth.enabled == false)
        #expect(config.auth.algorithms == ["SHA-256", "MD5"])
        #expect(config.auth.nonceLifetime == 86400)
        #expect(config.auth.trustedPeers == [TrustedPeer("10.0.0.0/8")!])
        #expect(config.auth.secret == "0123456789abcdef")
        #expect(config.database == DatabaseSection(path: "/etc/sipwake/state/sipwake.sqlite", groupCommitMaxBatch: 100000))
        #expect(config.log == LogSection(level: .critical, format: .json))
    }
}
