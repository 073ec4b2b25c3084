import Testing
@testable import Config

@Suite struct EnvironmentOverrideTests {
    private func parse(_ toml: String = "", environment: [String: String]) throws -> SipwakeConfig {
        try SipwakeConfig.parse(toml, file: ConfigTestSupport.file, environment: environment)
    }

    @Test func stringOverride() throws {
        let config = try parse(environment: ["SIPWAKE_AUTH_REALM": "example.com"])
        #expect(config.auth.realm == "example.com")
        #expect(config.auth.effectiveRealm == "example.com")
    }

    @Test func integerOverrideBeatsTheFile() throws {
        let config = try parse("[registrar]\nmin_expires = 100\n", environment: ["SIPWAKE_REGISTRAR_MIN_EXPIRES": "120"])
        #expect(config.registrar.minExpires == 120)
    }

    @Test func booleanOverride() throws {
        #expect(try parse(environment: ["SIPWAKE_AUTH_ENABLED": "false"]).auth.enabled == false)
        #expect(try parse("[auth]\nenabled = false", environment: ["SIPWAKE_AUTH_ENABLED": "TRUE"]).auth.enabled == true)
    }

    @Test func arrayOverrideIsCommaSeparatedAndTrimmed() throws {
        let config = try parse(environment: [
            "SIPWAKE_SIP_LISTEN": "udp:0.0.0.0:5070, tcp:[::1]:5070",
            "SIPWAKE_AUTH_TRUSTED_PEERS": "10.0.0.0/8,::1",
        ])
        #expect(config.sip.listen == [
            ListenAddress(transport: .udp, host: "0.0.0.0", port: 5070),
            ListenAddress(transport: .tcp, host: "::1", port: 5070),
        ])
        #expect(config.auth.trustedPeers.map(\.description) == ["10.0.0.0/8", "::1"])
    }

    @Test func emptyArrayOverride() throws {
        let config = try parse("[auth]\ntrusted_peers = [\"10.0.0.1\"]", environment: ["SIPWAKE_AUTH_TRUSTED_PEERS": ""])
        #expect(config.auth.trustedPeers.isEmpty)
    }

    @Test func badBooleanNamesTheVariable() throws {
        let error = try #require(ConfigTestSupport.parseError("", environment: ["SIPWAKE_AUTH_ENABLED": "yes please"]))
        #expect(error.kind == .wrongType)
        #expect(error.key == "auth.enabled")
        #expect(error.environmentVariable == "SIPWAKE_AUTH_ENABLED")
        #expect(error.description == "SIPWAKE_AUTH_ENABLED: expected true or false, got 'yes please'")
    }

    @Test func badIntegerNamesTheVariable() throws {
        let error = try #require(ConfigTestSupport.parseError("", environment: ["SIPWAKE_SIP_MAX_MESSAGE_SIZE": "64k"]))
        #expect(error.description == "SIPWAKE_SIP_MAX_MESSAGE_SIZE: expected an integer, got '64k'")
    }

    @Test func invalidValueFromTheEnvironmentNamesTheVariableAndKey() throws {
        let error = try #require(ConfigTestSupport.parseError(
            "[registrar]\nmin_expires = 60\n", environment: ["SIPWAKE_REGISTRAR_MIN_EXPIRES": "0"]))
        #expect(error.kind == .invalidValue)
        #expect(error.line == nil)
        #expect(error.description == "SIPWAKE_REGISTRAR_MIN_EXPIRES: [registrar] min_expires: 0 is out of range (1...86400)")

        let listen = try #require(ConfigTestSupport.parseError("", environment: ["SIPWAKE_SIP_LISTEN": "udp:1.2.3"]))
        #expect(listen.description.hasPrefix("SIPWAKE_SIP_LISTEN: [sip] listen: 'udp:1.2.3' is not a valid listen address"))
    }

    @Test func unknownVariableIsAnError() throws {
        let error = try #require(ConfigTestSupport.parseError("", environment: ["SIPWAKE_SIP_LISTN": "udp:127.0.0.1:5060"]))
        #expect(error.kind == .unknownEnvironmentVariable)
        #expect(error.environmentVariable == "SIPWAKE_SIP_LISTN")
        #expect(error.description.hasPrefix("SIPWAKE_SIP_LISTN: unknown setting"))
        #expect(error.description.contains("did you mean SIPWAKE_SIP_LISTEN?"))
    }

    @Test func lowerCaseVariableIsUnknown() throws {
        let error = try #require(ConfigTestSupport.parseError("", environment: ["SIPWAKE_sip_listen": "udp:127.0.0.1:5060"]))
        #expect(error.kind == .unknownEnvironmentVariable)
    }

    @Test func unrelatedAndReservedVariablesAreIgnored() throws {
        let config = try parse(environment: [
            "PATH": "/usr/bin", "HOME": "/root", "SIPWAKEFOO": "x", "SIPWAKE_CONFIG": "/etc/sipwake.toml",
        ])
        var expected = SipwakeConfig.defaults
        expected.database.path = "/srv/sipwake/var/sipwake.sqlite"
        #expect(config == expected)
    }

    @Test func everyKeyCanBeSetFromTheEnvironment() throws {
        // Each schema key has a variable the loader accepts (with a valid value).
        let samples: [String: String] = [
            "SIPWAKE_SIP_LISTEN": "udp:127.0.0.1:5080", "SIPWAKE_SIP_DOMAINS": "Example.COM,[::1]",
            "SIPWAKE_SIP_MAX_MESSAGE_SIZE": "2048", "SIPWAKE_SIP_PUBLIC_HOST": "[2001:db8::1]",
            "SIPWAKE_SIP_EDGE_PROXIES": "10.1.0.0/16,::1", "SIPWAKE_SIP_MAX_UNAUTHENTICATED_PER_SOURCE": "7",
            "SIPWAKE_SIP_MAX_STATELESS_PER_SECOND": "0",
            "SIPWAKE_AUTH_NONCE_MAX_USES": "9", "SIPWAKE_AUTH_MAX_FAILURES_PER_SOURCE": "0",
            "SIPWAKE_AUTH_MAX_FAILURES_PER_USER": "2", "SIPWAKE_AUTH_FAILURE_WINDOW": "30", "SIPWAKE_AUTH_BLOCK_TIME": "90",
            "SIPWAKE_TLS_CERTIFICATE": "", "SIPWAKE_TLS_KEY": "",
            "SIPWAKE_REGISTRAR_MIN_EXPIRES": "30", "SIPWAKE_REGISTRAR_MAX_EXPIRES": "7200",
            "SIPWAKE_REGISTRAR_DEFAULT_EXPIRES": "600", "SIPWAKE_REGISTRAR_MAX_BINDINGS_PER_AOR": "3",
            "SIPWAKE_REGISTRAR_KEEPALIVE_INTERVAL": "25",
            "SIPWAKE_REGISTRAR_PN_REFRESH_BEFORE": "300",
            "SIPWAKE_REGISTRAR_PN_REFRESH_RETRIES": "4",
            "SIPWAKE_AUTH_ENABLED": "false", "SIPWAKE_AUTH_REALM": "", "SIPWAKE_AUTH_ALGORITHMS": "md5",
            "SIPWAKE_AUTH_NONCE_LIFETIME": "60", "SIPWAKE_AUTH_TRUSTED_PEERS": "192.168.0.0/16",
            "SIPWAKE_AUTH_SECRET": "s3cret", "SIPWAKE_DATABASE_PATH": "/data/sipwake.sqlite",
            // Empty: the SQLite path above stays (both set is refused, DatabaseURLTests).
            "SIPWAKE_DATABASE_URL": "",
            "SIPWAKE_DATABASE_GROUP_COMMIT_MAX_BATCH": "10", "SIPWAKE_LOG_LEVEL": "DEBUG", "SIPWAKE_LOG_FORMAT": "json",
            "SIPWAKE_HTTP_LISTEN": "[::1]:9090", "SIPWAKE_HTTP_ADMIN_TOKEN": "0123456789abcdef-token",
            "SIPWAKE_HTTP_MAX_BODY_SIZE": "4096", "SIPWAKE_HTTP_FAILED_LOGINS_PER_MINUTE": "3",
            "SIPWAKE_HTTP_ADMIN_FAILURES_PER_MINUTE": "4",
            "SIPWAKE_TUPLES_STALE_AFTER_DAYS": "7",
            "SIPWAKE_CALLS_WAKE_WINDOW": "45", "SIPWAKE_CALLS_TIMEOUT_STATUS": "408",
            "SIPWAKE_CALLS_RINGBACK_ON_PUSH": "true", "SIPWAKE_CALLS_END_NOTIFICATION": "MESSAGE",
            "SIPWAKE_CALLS_MISSED_CALL_GRACE": "0", "SIPWAKE_CALLS_PAIRING_ID": "uuid",
            "SIPWAKE_CALLS_OUTBOUND_PROXY": "sip:pbx.example.com;transport=tcp", "SIPWAKE_CALLS_RECORD_RETENTION_DAYS": "2",
            "SIPWAKE_CALLS_REJECTED_RECORDS_PER_MINUTE": "0",
            "SIPWAKE_PUSH_ENABLED": "false", "SIPWAKE_PUSH_GATEWAY_URL": "http://127.0.0.1:8090/pnm2/send",
            "SIPWAKE_PUSH_TIMEOUT": "3", "SIPWAKE_PUSH_INCOMING_BADGE": "2", "SIPWAKE_PUSH_MISSED_BADGE": "5",
            "SIPWAKE_PUSH_SOUND": "", "SIPWAKE_PUSH_CA_FILE": "",
            "SIPWAKE_WEBHOOK_URL": "", "SIPWAKE_WEBHOOK_SECRETS": "", "SIPWAKE_WEBHOOK_TIMEOUT": "7",
        ]
        #expect(Set(samples.keys) == Set(ConfigSchema.keys.map(\.environmentVariable)))
        let config = try parse(environment: samples)
        #expect(config.sip.listen == [ListenAddress(transport: .udp, host: "127.0.0.1", port: 5080)])
        #expect(config.sip.domains == ["example.com", "[::1]"])
        #expect(config.sip.maxMessageSize == 2048)
        #expect(config.sip.publicHost == "2001:db8::1")
        #expect(config.sip.isEdgeProxy("10.1.2.3") && config.sip.isEdgeProxy("::1") && !config.sip.isEdgeProxy("10.2.0.1"))
        #expect(config.sip.maxUnauthenticatedPerSource == 7)
        #expect(config.sip.maxStatelessPerSecond == 0)
        #expect(config.auth.nonceMaxUses == 9)
        #expect(config.auth.maxFailuresPerSource == 0)
        #expect(config.auth.maxFailuresPerUser == 2)
        #expect(config.auth.failureWindow == 30)
        #expect(config.auth.blockTime == 90)
        #expect(config.registrar == RegistrarSection(minExpires: 30, maxExpires: 7200, defaultExpires: 600, maxBindingsPerAOR: 3,
                                                     keepaliveInterval: 25, pnRefreshBefore: 300, pnRefreshRetries: 4))
        #expect(config.auth.enabled == false)
        #expect(config.http == HTTPSection(listen: HTTPListenAddress(host: "::1", port: 9090), adminToken: "0123456789abcdef-token",
                                           maxBodySize: 4096, failedLoginsPerMinute: 3, adminFailuresPerMinute: 4))
        #expect(config.tuples == TuplesSection(staleAfterDays: 7))
        #expect(config.auth.effectiveRealm == "example.com")
        #expect(config.auth.algorithms == ["MD5"])
        #expect(config.auth.nonceLifetime == 60)
        #expect(config.auth.isTrusted("192.168.7.7"))
        #expect(config.auth.secret == "s3cret")
        #expect(config.database == DatabaseSection(path: "/data/sipwake.sqlite", groupCommitMaxBatch: 10))
        #expect(config.log == LogSection(level: .debug, format: .json))
        #expect(config.calls == CallsSection(wakeWindow: 45, timeoutStatus: 408, ringbackOnPush: true,
                                             endNotification: "message", missedCallGrace: 0, pairingID: "uuid",
                                             outboundProxy: "sip:pbx.example.com;transport=tcp", recordRetentionDays: 2,
                                             rejectedRecordsPerMinute: 0))
        #expect(config.push == PushSection(enabled: false, gatewayURL: "http://127.0.0.1:8090/pnm2/send", timeout: 3,
                                           incomingBadge: 2, missedBadge: 5, sound: "", caFile: ""))
        #expect(config.webhook == WebhookSection(timeout: 7))
    }
}
