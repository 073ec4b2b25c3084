import Testing
@testable import Config

@Suite struct ValidationErrorTests {
    static let cases: [ValidationCase] = [
        // Wrong types.
        ValidationCase(name: "string for integer", toml: "[sip]\nmax_message_size = \"big\"",
                       kind: .wrongType, key: "sip.max_message_size", mentions: "expected an integer, got a string ('big')", line: 2),
        ValidationCase(name: "float for integer", toml: "[auth]\n\nnonce_lifetime = 30.5",
                       kind: .wrongType, key: "auth.nonce_lifetime", mentions: "expected an integer, got a floating-point number", line: 3),
        ValidationCase(name: "string for boolean", toml: "[auth]\nenabled = \"yes\"",
                       kind: .wrongType, key: "auth.enabled", mentions: "expected true or false", line: 2),
        ValidationCase(name: "string for array", toml: "[sip]\nlisten = \"udp:127.0.0.1:5060\"",
                       kind: .wrongType, key: "sip.listen", mentions: "expected an array of strings, got a string", line: 2),
        ValidationCase(name: "integer in string array", toml: "[sip]\nlisten = [\"udp:127.0.0.1:5060\", 5]",
                       kind: .wrongType, key: "sip.listen", mentions: "element 2 is an integer (5)", line: 2),
        ValidationCase(name: "integer for string", toml: "[log]\nlevel = 3",
                       kind: .wrongType, key: "log.level", mentions: "expected a string", line: 2),

        // Out of range.
        ValidationCase(name: "max_message_size too small", toml: "[sip]\nmax_message_size = 100",
                       kind: .invalidValue, key: "sip.max_message_size", mentions: "100 is out of range (1024...1048576)", line: 2),
        ValidationCase(name: "min_expires zero", toml: "[registrar]\nmin_expires = 0",
                       kind: .invalidValue, key: "registrar.min_expires", mentions: "0 is out of range (1...86400)", line: 2),
        ValidationCase(name: "http listen without port", toml: "[http]\nlisten = \"127.0.0.1\"",
                       kind: .invalidValue, key: "http.listen", mentions: "is not a valid HTTP address", line: 2),
        ValidationCase(name: "short admin token", toml: "[http]\nadmin_token = \"secret\"",
                       kind: .invalidValue, key: "http.admin_token", mentions: "at least 16 characters", line: 2),
        ValidationCase(name: "stale tuples out of range", toml: "[tuples]\nstale_after_days = 4000",
                       kind: .invalidValue, key: "tuples.stale_after_days", mentions: "4000 is out of range (0...3650)", line: 2),
        ValidationCase(name: "keep-alive too rare", toml: "[registrar]\nkeepalive_interval = 3601",
                       kind: .invalidValue, key: "registrar.keepalive_interval", mentions: "3601 is out of range (0...3600)", line: 2),
        ValidationCase(name: "refresh retries too many", toml: "[registrar]\npn_refresh_retries = 6",
                       kind: .invalidValue, key: "registrar.pn_refresh_retries", mentions: "6 is out of range (0...5)", line: 2),
        ValidationCase(name: "too many bindings", toml: "[registrar]\nmax_bindings_per_aor = 1001",
                       kind: .invalidValue, key: "registrar.max_bindings_per_aor", mentions: "1001 is out of range (1...1000)", line: 2),
        ValidationCase(name: "nonce lifetime too short", toml: "[auth]\nnonce_lifetime = 5",
                       kind: .invalidValue, key: "auth.nonce_lifetime", mentions: "5 is out of range (10...86400)", line: 2),
        ValidationCase(name: "batch zero", toml: "[database]\ngroup_commit_max_batch = 0",
                       kind: .invalidValue, key: "database.group_commit_max_batch", mentions: "out of range (1...100000)", line: 2),

        ValidationCase(name: "wake window too long", toml: "[calls]\nwake_window = 601",
                       kind: .invalidValue, key: "calls.wake_window", mentions: "601 is out of range (1...600)", line: 2),
        ValidationCase(name: "timeout status not a failure", toml: "[calls]\ntimeout_status = 200",
                       kind: .invalidValue, key: "calls.timeout_status", mentions: "200 is out of range (400...699)", line: 2),
        ValidationCase(name: "end notification unknown", toml: "[calls]\nend_notification = \"sms\"",
                       kind: .invalidValue, key: "calls.end_notification", mentions: "'sms' is not one of push, message, both", line: 2),
        ValidationCase(name: "rejected records cap too high", toml: "[calls]\nrejected_records_per_minute = 100001",
                       kind: .invalidValue, key: "calls.rejected_records_per_minute",
                       mentions: "100001 is out of range (0...100000)", line: 2),
        ValidationCase(name: "pairing id unknown", toml: "[calls]\npairing_id = \"random\"",
                       kind: .invalidValue, key: "calls.pairing_id", mentions: "'random' is not one of call-id, uuid", line: 2),
        ValidationCase(name: "outbound proxy not a SIP URI", toml: "[calls]\noutbound_proxy = \"pbx.example.com\"",
                       kind: .invalidValue, key: "calls.outbound_proxy", mentions: "'pbx.example.com' is not a SIP URI", line: 2),
        ValidationCase(name: "gateway not http", toml: "[push]\ngateway_url = \"ftp://gw/send\"",
                       kind: .invalidValue, key: "push.gateway_url", mentions: "'ftp://gw/send' is not an http:// or https:// URL", line: 2),
        ValidationCase(name: "push timeout zero", toml: "[push]\ntimeout = 0",
                       kind: .invalidValue, key: "push.timeout", mentions: "0 is out of range (1...60)", line: 2),
        ValidationCase(name: "missing CA file", toml: "[push]\nca_file = \"no-such-ca.pem\"",
                       kind: .missingFile, key: "push.ca_file", mentions: "cannot read '/srv/sipwake/etc/no-such-ca.pem'", line: 2),

        // Cross-key rules.
        ValidationCase(name: "default_expires below min", toml: "[registrar]\nmin_expires = 60\ndefault_expires = 30",
                       kind: .invalidValue, key: "registrar.default_expires", mentions: "30 is outside min_expires...max_expires (60...3600)", line: 3),
        ValidationCase(name: "default_expires above max", toml: "[registrar]\nmax_expires = 600\n",
                       kind: .invalidValue, key: "registrar.default_expires", mentions: "3600 is outside min_expires...max_expires (60...600)", line: nil),
        ValidationCase(name: "max below min", toml: "[registrar]\nmin_expires = 600\nmax_expires = 300\ndefault_expires = 400",
                       kind: .invalidValue, key: "registrar.max_expires", mentions: "300 is less than min_expires (600)", line: 3),
        ValidationCase(name: "tls listen without certificate", toml: "[sip]\nlisten = [\"tls:127.0.0.1:5061\"]",
                       kind: .invalidValue, key: "sip.listen", mentions: "'tls:127.0.0.1:5061' needs a certificate: set [tls] certificate and key", line: 2),
        ValidationCase(name: "certificate without key", toml: "[tls]\ncertificate = \"cert.pem\"",
                       kind: .invalidValue, key: "tls.key", mentions: "certificate is set but key is not", line: nil),
        ValidationCase(name: "key without certificate", toml: "[tls]\nkey = \"key.pem\"",
                       kind: .invalidValue, key: "tls.certificate", mentions: "key is set but certificate is not", line: nil),
        ValidationCase(name: "missing certificate file", toml: "[tls]\ncertificate = \"no-such-cert.pem\"\nkey = \"no-such-key.pem\"",
                       kind: .missingFile, key: "tls.certificate", mentions: "cannot read '/srv/sipwake/etc/no-such-cert.pem'", line: 2),

        // Malformed values.
        ValidationCase(name: "listen without port", toml: "[sip]\nlisten = [\"udp:1.2.3\"]",
                       kind: .invalidValue, key: "sip.listen", mentions: "'udp:1.2.3' is not a valid listen address (expected udp|tcp|tls:HOST:PORT", line: 2),
        ValidationCase(name: "listen unknown transport", toml: "[sip]\nlisten = [\"sctp:127.0.0.1:5060\"]",
                       kind: .invalidValue, key: "sip.listen", mentions: "'sctp:127.0.0.1:5060' is not a valid listen address", line: 2),
        ValidationCase(name: "listen empty", toml: "[sip]\nlisten = []",
                       kind: .invalidValue, key: "sip.listen", mentions: "at least one listen address is required", line: 2),
        ValidationCase(name: "listen duplicate", toml: "[sip]\nlisten = [\"udp:127.0.0.1:5060\", \"UDP:127.0.0.1:5060\"]",
                       kind: .invalidValue, key: "sip.listen", mentions: "'UDP:127.0.0.1:5060' is listed twice", line: 2),
        ValidationCase(name: "domains empty", toml: "[sip]\ndomains = []",
                       kind: .invalidValue, key: "sip.domains", mentions: "at least one domain is required", line: 2),
        ValidationCase(name: "domain with space", toml: "[sip]\ndomains = [\"example com\"]",
                       kind: .invalidValue, key: "sip.domains", mentions: "'example com' is not a valid domain", line: 2),
        ValidationCase(name: "public host with port", toml: "[sip]\npublic_host = \"example.com:5060\"",
                       kind: .invalidValue, key: "sip.public_host", mentions: "'example.com:5060' is not a valid host", line: 2),
        ValidationCase(name: "algorithms empty", toml: "[auth]\nalgorithms = []",
                       kind: .invalidValue, key: "auth.algorithms", mentions: "at least one algorithm is required", line: 2),
        ValidationCase(name: "algorithm unknown", toml: "[auth]\nalgorithms = [\"SHA-512\"]",
                       kind: .invalidValue, key: "auth.algorithms", mentions: "'SHA-512' is not a supported algorithm (SHA-256, MD5)", line: 2),
        ValidationCase(name: "algorithm twice", toml: "[auth]\nalgorithms = [\"MD5\", \"md5\"]",
                       kind: .invalidValue, key: "auth.algorithms", mentions: "'md5' is listed twice", line: 2),
        ValidationCase(name: "trusted peer prefix too long", toml: "[auth]\ntrusted_peers = [\"10.0.0.0/33\"]",
                       kind: .invalidValue, key: "auth.trusted_peers", mentions: "'10.0.0.0/33' is not an IP address or CIDR range", line: 2),
        ValidationCase(name: "trusted peer host name", toml: "[auth]\ntrusted_peers = [\"pbx.example.com\"]",
                       kind: .invalidValue, key: "auth.trusted_peers", mentions: "'pbx.example.com' is not an IP address", line: 2),
        ValidationCase(name: "edge proxy host name", toml: "[sip]\nedge_proxies = [\"edge.example.com\"]",
                       kind: .invalidValue, key: "sip.edge_proxies", mentions: "'edge.example.com' is not an IP address", line: 2),
        ValidationCase(name: "per-source rate negative", toml: "[sip]\nmax_unauthenticated_per_source = -1",
                       kind: .invalidValue, key: "sip.max_unauthenticated_per_source", mentions: "-1 is out of range (0...1000000)", line: 2),
        ValidationCase(name: "nonce uses zero", toml: "[auth]\nnonce_max_uses = 0",
                       kind: .invalidValue, key: "auth.nonce_max_uses", mentions: "0 is out of range (1...1000000)", line: 2),
        ValidationCase(name: "failures per user zero", toml: "[auth]\nmax_failures_per_user = 0",
                       kind: .invalidValue, key: "auth.max_failures_per_user", mentions: "0 is out of range (1...1000000)", line: 2),
        ValidationCase(name: "block time zero", toml: "[auth]\nblock_time = 0",
                       kind: .invalidValue, key: "auth.block_time", mentions: "0 is out of range (1...86400)", line: 2),
        ValidationCase(name: "admin failures zero", toml: "[http]\nadmin_failures_per_minute = 0",
                       kind: .invalidValue, key: "http.admin_failures_per_minute", mentions: "out of range", line: 2),
        ValidationCase(name: "realm with quote", toml: "[auth]\nrealm = \"a\\\"b\"",
                       kind: .invalidValue, key: "auth.realm", mentions: "must not contain double quotes", line: 2),
        ValidationCase(name: "database path empty", toml: "[database]\npath = \"\"",
                       kind: .invalidValue, key: "database.path", mentions: "must not be empty", line: 2),
        ValidationCase(name: "log level unknown", toml: "[log]\nlevel = \"verbose\"",
                       kind: .invalidValue, key: "log.level", mentions: "'verbose' is not a log level (trace, debug, info, notice, warning, error, critical)", line: 2),
        ValidationCase(name: "log format unknown", toml: "[log]\nformat = \"xml\"",
                       kind: .invalidValue, key: "log.format", mentions: "'xml' is not a log format (text, json)", line: 2),
    ]

    @Test(arguments: cases)
    func errorNamesFileKeyAndProblem(_ testCase: ValidationCase) throws {
        let error = try #require(ConfigTestSupport.parseError(testCase.toml))
        #expect(error.kind == testCase.kind)
        #expect(error.key == testCase.key)
        #expect(error.file == ConfigTestSupport.file)
        #expect(error.line == testCase.line)
        #expect(error.environmentVariable == nil)
        #expect(error.description.hasPrefix(ConfigTestSupport.file + (testCase.line.map { ":\($0)" } ?? "") + ": "))
        #expect(error.description.contains(ConfigTestSupport.label(testCase.key) + ": "), "\(error.description)")
        #expect(error.description.contains(testCase.mentions), "\(error.description)")
    }

    @Test func exactDescriptionOfAnInvalidListenAddress() throws {
        let error = try #require(ConfigTestSupport.parseError("[sip]\nlisten = [\"udp:1.2.3\"]", file: "etc/sipwake.toml"))
        #expect(error.description
            == "etc/sipwake.toml:2: [sip] listen: 'udp:1.2.3' is not a valid listen address (expected udp|tcp|tls:HOST:PORT, IPv6 as tcp:[::1]:5060)")
    }

    @Test func unknownKeyHasLineAndSuggestion() throws {
        let error = try #require(ConfigTestSupport.parseError("# comment\n[sip]\nlisten = [\"udp:127.0.0.1:5060\"]\nlistn = []\n"))
        #expect(error.kind == .unknownKey)
        #expect(error.key == "sip.listn")
        #expect(error.line == 4)
        #expect(error.description == "\(ConfigTestSupport.file):4: unknown key 'listn' in [sip] (did you mean 'listen'?)")
    }

    @Test func unknownKeyAfterMultiLineArrayGetsItsOwnLine() throws {
        let toml = """
            [sip]
            listen = [
              "udp:127.0.0.1:5060",   # a comment with [brackets
              "tcp:127.0.0.1:5060",
              "listn = 1",
            ]
            listn = 1
            """
        let error = try #require(ConfigTestSupport.parseError(toml))
        // The string "listn = 1" inside the array must not be taken for the key (line 5).
        #expect(error.kind == .unknownKey)
        #expect(error.line == 7)
    }

    @Test func keyTextInsideAMultiLineStringIsNotTakenForTheKey() throws {
        let toml = """
            [auth]
            secret = \"\"\"
            nonce_lifetime = 5
            [log]
            \"\"\"
            nonce_lifetime = 5
            """
        let error = try #require(ConfigTestSupport.parseError(toml))
        #expect(error.key == "auth.nonce_lifetime")
        #expect(error.line == 6)
    }

    @Test func unknownSectionHasLine() throws {
        let error = try #require(ConfigTestSupport.parseError("[sip]\nmax_message_size = 2048\n\n[sipp]\nlisten = []\n"))
        #expect(error.kind == .unknownSection)
        #expect(error.key == "sipp")
        #expect(error.line == 4)
        #expect(error.description == "\(ConfigTestSupport.file):4: unknown section [sipp] (did you mean [sip]?)")
    }

    @Test func unknownDottedSectionAndTopLevelKey() throws {
        let dotted = try #require(ConfigTestSupport.parseError("\nregistrer.min_expires = 60\n"))
        #expect(dotted.kind == .unknownSection)
        #expect(dotted.line == 2)
        #expect(dotted.description.contains("unknown section [registrer] (did you mean [registrar]?)"))

        let topLevel = try #require(ConfigTestSupport.parseError("listen = []\n"))
        #expect(topLevel.kind == .unknownSection)
        #expect(topLevel.line == 1)
        #expect(topLevel.description.contains("unknown key 'listen' at the top level"))
    }

    @Test func nestedTableInSectionIsUnknownKey() throws {
        let error = try #require(ConfigTestSupport.parseError("[sip]\n[sip.extra]\nx = 1\n"))
        #expect(error.kind == .unknownKey)
        #expect(error.key == "sip.extra")
        #expect(error.line == 2)
    }

    @Test func sectionThatIsNotATable() throws {
        let error = try #require(ConfigTestSupport.parseError("sip = 5\n"))
        #expect(error.kind == .wrongType)
        #expect(error.description.contains("'sip' must be a section ([sip]), got an integer (5)"))
    }

    @Test func firstProblemInTheFileIsReported() throws {
        // TOMLKit iterates keys sorted; the error must still be the first one by line.
        let error = try #require(ConfigTestSupport.parseError("[sip]\nzzz = 1\naaa = 2\n"))
        #expect(error.key == "sip.zzz")
        #expect(error.line == 2)
    }
}
