/// Turns a `RawConfig` into a validated `SipwakeConfig`: value formats, ranges, rules
/// across keys, path resolution and the TLS files' presence.
struct ConfigBuilder {
    let raw: RawConfig
    let file: String
    /// Absolute directory of the configuration file, for relative paths.
    let directory: String
    /// Whether a file exists and can be read (injected so the rule is testable).
    let isReadableFile: (String) -> Bool

    func build() throws(ConfigError) -> SipwakeConfig {
        let defaults = SipwakeConfig.defaults
        var config = defaults
        config.tls = try tls(defaults.tls)
        config.sip = try sip(defaults.sip, tls: config.tls)
        config.registrar = try registrar(defaults.registrar)
        config.auth = try auth(defaults.auth, domains: config.sip.domains)
        config.database = try database(defaults.database)
        config.log = try log(defaults.log)
        config.http = try http(defaults.http)
        config.tuples = TuplesSection(
            staleAfterDays: try integer(key("tuples", "stale_after_days")) ?? defaults.tuples.staleAfterDays)
        config.calls = try calls(defaults.calls)
        config.push = try push(defaults.push)
        config.apps = try apps()
        config.webhook = try webhook(defaults.webhook, domains: config.sip.domains, push: config.push)
        return config
    }

    // MARK: Sections

    private func sip(_ defaults: SIPSection, tls: TLSSection) throws(ConfigError) -> SIPSection {
        var section = defaults
        let listenKey = key("sip", "listen")
        if let entries = strings(listenKey) {
            guard !entries.isEmpty else { throw invalid(listenKey, "at least one listen address is required") }
            var addresses: [ListenAddress] = []
            for entry in entries {
                guard let address = ListenAddress(entry) else {
                    throw invalid(listenKey, "'\(entry)' is not a valid listen address (expected udp|tcp|tls:HOST:PORT, IPv6 as tcp:[::1]:5060)")
                }
                guard !addresses.contains(address) else { throw invalid(listenKey, "'\(entry)' is listed twice") }
                addresses.append(address)
            }
            section.listen = addresses
        }
        if let tlsAddress = section.listen.first(where: { $0.transport == .tls }), !tls.isConfigured {
            throw invalid(listenKey, "'\(tlsAddress)' needs a certificate: set [tls] certificate and key")
        }

        let domainsKey = key("sip", "domains")
        if let entries = strings(domainsKey) {
            guard !entries.isEmpty else { throw invalid(domainsKey, "at least one domain is required") }
            section.domains = []
            for entry in entries {
                guard let host = HostSyntax.bareHost(entry) else {
                    throw invalid(domainsKey, "'\(entry)' is not a valid domain (expected a host name or an IP address)")
                }
                let domain = host.contains(":") ? "[\(host.lowercased())]" : host.lowercased()
                if !section.domains.contains(domain) { section.domains.append(domain) }
            }
        }

        section.maxMessageSize = try integer(key("sip", "max_message_size")) ?? defaults.maxMessageSize
        if let edges = try addressRanges(key("sip", "edge_proxies")) { section.edgeProxies = edges }
        section.maxUnauthenticatedPerSource = try integer(key("sip", "max_unauthenticated_per_source"))
            ?? defaults.maxUnauthenticatedPerSource
        section.maxStatelessPerSecond = try integer(key("sip", "max_stateless_per_second"))
            ?? defaults.maxStatelessPerSecond

        let publicHostKey = key("sip", "public_host")
        if let publicHost = string(publicHostKey) {
            if publicHost.isEmpty {
                section.publicHost = ""
            } else {
                guard let host = HostSyntax.bareHost(publicHost) else {
                    throw invalid(publicHostKey, "'\(publicHost)' is not a valid host (expected a host name or an IP address, or \"\")")
                }
                section.publicHost = host
            }
        }
        return section
    }

    private func tls(_ defaults: TLSSection) throws(ConfigError) -> TLSSection {
        let certificateKey = key("tls", "certificate"), keyKey = key("tls", "key")
        let certificate = string(certificateKey) ?? defaults.certificate
        let privateKey = string(keyKey) ?? defaults.key
        if !certificate.isEmpty, privateKey.isEmpty {
            throw invalid(keyKey, "certificate is set but key is not; set both or neither")
        }
        if certificate.isEmpty, !privateKey.isEmpty {
            throw invalid(certificateKey, "key is set but certificate is not; set both or neither")
        }
        var section = TLSSection()
        if !certificate.isEmpty {
            section.certificate = try existingFile(certificate, for: certificateKey)
            section.key = try existingFile(privateKey, for: keyKey)
        }
        return section
    }

    private func registrar(_ defaults: RegistrarSection) throws(ConfigError) -> RegistrarSection {
        var section = defaults
        section.minExpires = try integer(key("registrar", "min_expires")) ?? defaults.minExpires
        section.maxExpires = try integer(key("registrar", "max_expires")) ?? defaults.maxExpires
        section.defaultExpires = try integer(key("registrar", "default_expires")) ?? defaults.defaultExpires
        section.maxBindingsPerAOR = try integer(key("registrar", "max_bindings_per_aor")) ?? defaults.maxBindingsPerAOR
        section.keepaliveInterval = try integer(key("registrar", "keepalive_interval")) ?? defaults.keepaliveInterval
        section.pnRefreshBefore = try integer(key("registrar", "pn_refresh_before")) ?? defaults.pnRefreshBefore
        section.pnRefreshRetries = try integer(key("registrar", "pn_refresh_retries")) ?? defaults.pnRefreshRetries
        guard section.maxExpires >= section.minExpires else {
            throw invalid(key("registrar", "max_expires"),
                          "\(section.maxExpires) is less than min_expires (\(section.minExpires))")
        }
        guard (section.minExpires...section.maxExpires).contains(section.defaultExpires) else {
            throw invalid(key("registrar", "default_expires"),
                          "\(section.defaultExpires) is outside min_expires...max_expires (\(section.minExpires)...\(section.maxExpires))")
        }
        return section
    }

    private func auth(_ defaults: AuthSection, domains: [String]) throws(ConfigError) -> AuthSection {
        var section = defaults
        section.defaultRealm = domains[0]
        if case .boolean(let enabled)? = raw.value(key("auth", "enabled")) { section.enabled = enabled }

        let realmKey = key("auth", "realm")
        if let realm = string(realmKey) {
            guard !realm.contains("\""), !realm.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw invalid(realmKey, "'\(realm)' must not contain double quotes or control characters")
            }
            section.realm = realm
        }

        let algorithmsKey = key("auth", "algorithms")
        if let entries = strings(algorithmsKey) {
            guard !entries.isEmpty else {
                throw invalid(algorithmsKey, "at least one algorithm is required (SHA-256, MD5)")
            }
            var algorithms: [String] = []
            for entry in entries {
                guard let algorithm = AuthSection.supportedAlgorithms.first(where: { $0.uppercased() == entry.uppercased() }) else {
                    throw invalid(algorithmsKey, "'\(entry)' is not a supported algorithm (SHA-256, MD5)")
                }
                guard !algorithms.contains(algorithm) else { throw invalid(algorithmsKey, "'\(entry)' is listed twice") }
                algorithms.append(algorithm)
            }
            section.algorithms = algorithms
        }

        section.nonceLifetime = try integer(key("auth", "nonce_lifetime")) ?? defaults.nonceLifetime

        if let peers = try addressRanges(key("auth", "trusted_peers")) { section.trustedPeers = peers }

        section.secret = string(key("auth", "secret")) ?? defaults.secret
        section.nonceMaxUses = try integer(key("auth", "nonce_max_uses")) ?? defaults.nonceMaxUses
        section.maxFailuresPerSource = try integer(key("auth", "max_failures_per_source")) ?? defaults.maxFailuresPerSource
        section.maxFailuresPerUser = try integer(key("auth", "max_failures_per_user")) ?? defaults.maxFailuresPerUser
        section.failureWindow = try integer(key("auth", "failure_window")) ?? defaults.failureWindow
        section.blockTime = try integer(key("auth", "block_time")) ?? defaults.blockTime
        return section
    }

    /// A list of IP addresses or CIDR ranges; nil when the key is not set.
    private func addressRanges(_ key: ConfigKey) throws(ConfigError) -> [TrustedPeer]? {
        guard let entries = strings(key) else { return nil }
        var peers: [TrustedPeer] = []
        for entry in entries {
            guard let peer = TrustedPeer(entry) else {
                throw invalid(key, "'\(entry)' is not an IP address or CIDR range (e.g. 10.0.0.0/8, ::1)")
            }
            peers.append(peer)
        }
        return peers
    }

    private func database(_ defaults: DatabaseSection) throws(ConfigError) -> DatabaseSection {
        var section = defaults
        let pathKey = key("database", "path")
        let urlKey = key("database", "url")
        if let text = string(urlKey), !text.isEmpty {
            // Both in the file, or both in the environment, is a mistake; a
            // url from the environment overrides the file's path, as every
            // variable overrides the file.
            let urlFromEnvironment: Bool
            if case .environment = raw.source(urlKey) { urlFromEnvironment = true } else { urlFromEnvironment = false }
            let pathFromEnvironment: Bool
            if case .environment = raw.source(pathKey) { pathFromEnvironment = true } else { pathFromEnvironment = false }
            if string(pathKey) != nil && (urlFromEnvironment == pathFromEnvironment || pathFromEnvironment) {
                throw invalid(urlKey, "set either url (PostgreSQL) or path (SQLite), not both")
            }
            switch DatabaseURL.parse(text) {
            case .success(let url): section.url = url
            case .failure(let error): throw invalid(urlKey, error.reason)
            }
        }
        let path = string(pathKey) ?? defaults.path
        guard !path.isEmpty else { throw invalid(pathKey, "must not be empty") }
        section.path = path == ":memory:" ? path : PathResolver.resolve(path, against: directory)
        section.groupCommitMaxBatch = try integer(key("database", "group_commit_max_batch")) ?? defaults.groupCommitMaxBatch
        return section
    }

    private func http(_ defaults: HTTPSection) throws(ConfigError) -> HTTPSection {
        var section = defaults
        let listenKey = key("http", "listen")
        if let listen = string(listenKey) {
            if listen.isEmpty {
                section.listen = nil
            } else {
                guard let address = HTTPListenAddress(listen) else {
                    throw invalid(listenKey, "'\(listen)' is not a valid HTTP address (expected HOST:PORT, IPv6 as [::1]:8080, or \"\" for none)")
                }
                section.listen = address
            }
        }
        let tokenKey = key("http", "admin_token")
        if let token = string(tokenKey) {
            guard token.isEmpty || token.count >= 16 else {
                throw invalid(tokenKey, "the admin token must be at least 16 characters (or \"\" to switch the admin API off)")
            }
            guard !token.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 0x21 || $0 > 0x7e } ?? true }) else {
                throw invalid(tokenKey, "the admin token must be printable ASCII without spaces")
            }
            section.adminToken = token
        }
        section.maxBodySize = try integer(key("http", "max_body_size")) ?? defaults.maxBodySize
        section.failedLoginsPerMinute = try integer(key("http", "failed_logins_per_minute")) ?? defaults.failedLoginsPerMinute
        section.adminFailuresPerMinute = try integer(key("http", "admin_failures_per_minute")) ?? defaults.adminFailuresPerMinute
        return section
    }

    private func calls(_ defaults: CallsSection) throws(ConfigError) -> CallsSection {
        var section = defaults
        section.wakeWindow = try integer(key("calls", "wake_window")) ?? defaults.wakeWindow
        section.timeoutStatus = try integer(key("calls", "timeout_status")) ?? defaults.timeoutStatus
        section.ringbackOnPush = boolean(key("calls", "ringback_on_push")) ?? defaults.ringbackOnPush
        section.missedCallGrace = try integer(key("calls", "missed_call_grace")) ?? defaults.missedCallGrace
        section.recordRetentionDays = try integer(key("calls", "record_retention_days")) ?? defaults.recordRetentionDays
        section.rejectedRecordsPerMinute = try integer(key("calls", "rejected_records_per_minute"))
            ?? defaults.rejectedRecordsPerMinute
        let endKey = key("calls", "end_notification")
        if let text = string(endKey) {
            guard ["push", "message", "both"].contains(text.lowercased()) else {
                throw invalid(endKey, "'\(text)' is not one of push, message, both")
            }
            section.endNotification = text.lowercased()
        }
        let pairingKey = key("calls", "pairing_id")
        if let text = string(pairingKey) {
            guard ["call-id", "uuid"].contains(text.lowercased()) else {
                throw invalid(pairingKey, "'\(text)' is not one of call-id, uuid")
            }
            section.pairingID = text.lowercased()
        }
        let proxyKey = key("calls", "outbound_proxy")
        if let text = string(proxyKey) {
            let lower = text.lowercased()
            guard text.isEmpty || ((lower.hasPrefix("sip:") || lower.hasPrefix("sips:")) && text.count > 5
                                   && !text.contains(where: { $0.isWhitespace || $0 == "<" || $0 == ">" })) else {
                throw invalid(proxyKey, "'\(text)' is not a SIP URI (expected e.g. sip:pbx.example.com:5060;transport=tcp, or \"\")")
            }
            section.outboundProxy = text
        }
        return section
    }

    private func push(_ defaults: PushSection) throws(ConfigError) -> PushSection {
        var section = defaults
        section.enabled = boolean(key("push", "enabled")) ?? defaults.enabled
        section.timeout = try integer(key("push", "timeout")) ?? defaults.timeout
        section.incomingBadge = try integer(key("push", "incoming_badge")) ?? defaults.incomingBadge
        section.missedBadge = try integer(key("push", "missed_badge")) ?? defaults.missedBadge
        section.sound = string(key("push", "sound")) ?? defaults.sound
        let urlKey = key("push", "gateway_url")
        if let text = string(urlKey), text.isEmpty {
            section.gatewayURL = ""
        } else if let text = string(urlKey) {
            let lower = text.lowercased()
            guard (lower.hasPrefix("http://") || lower.hasPrefix("https://")), text.count > 8,
                  !text.contains(where: { $0.isWhitespace }) else {
                throw invalid(urlKey, "'\(text)' is not an http:// or https:// URL")
            }
            section.gatewayURL = text
        }
        let caKey = key("push", "ca_file")
        if let path = string(caKey), !path.isEmpty {
            section.caFile = try existingFile(path, for: caKey)
        }
        return section
    }

    private func apps() throws(ConfigError) -> [AppSection] {
        var sections: [AppSection] = []
        for app in raw.apps {
            let section = try self.app(app)
            if let other = sections.first(where: { $0.appID == section.appID }) {
                throw appError(app, "app_id", .invalidValue,
                               "'\(section.appID)' is already the app id of [apps.\(other.name)]")
            }
            sections.append(section)
        }
        return sections
    }

    /// The keys each provider takes besides app_id, provider, format, template, template_file, url, sound,
    /// the `*_notification` switches and the `*_title` and `*_body` templates (the last two: apns and fcm).
    private static let providerKeys: [AppProvider: Set<String>] = [
        .acrobits: [],
        .apns: ["key_file", "key_id", "team_id", "bundle_id", "environment", "missed_category",
                "answered_elsewhere_category"],
        .fcm: ["service_account_file"],
    ]

    private func app(_ app: RawApp) throws(ConfigError) -> AppSection {
        func text(_ name: String) -> String? {
            if case .string(let value)? = app.values[name] { return value }
            return nil
        }
        func required(_ name: String, _ what: String) throws(ConfigError) -> String {
            guard let value = text(name), !value.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw appError(app, name, .invalidValue, "missing: set \(name) to \(what)")
            }
            return value
        }

        let appID = try required("app_id", "the app id the app reports with its tokens (pushappid)")
        guard appID.count <= 256, !appID.contains(where: { $0.isWhitespace || $0.isASCII && $0.asciiValue! < 32 }) else {
            throw appError(app, "app_id", .invalidValue, "'\(appID)' is not an app id (1 to 256 characters, no spaces)")
        }
        let providerText = try required("provider", "acrobits, apns or fcm")
        guard let provider = AppProvider(rawValue: providerText.lowercased()) else {
            throw appError(app, "provider", .invalidValue, "'\(providerText)' is not a push provider (acrobits, apns, fcm)")
        }
        for name in Self.providerKeys.values.reduce(Set(), { $0.union($1) }).sorted()
        where app.values[name] != nil && !(Self.providerKeys[provider] ?? []).contains(name) {
            let owner = Self.providerKeys.first { $0.value.contains(name) }?.key.rawValue ?? "another provider"
            throw appError(app, name, .invalidValue, "is a setting of \(owner) apps; this app's provider is \(provider.rawValue)")
        }

        let format: AppPayloadFormat
        if let formatText = text("format") {
            guard let parsed = AppPayloadFormat(rawValue: formatText.lowercased()) else {
                let names = AppPayloadFormat.allCases.map(\.rawValue).joined(separator: ", ")
                throw appError(app, "format", .invalidValue, "'\(formatText)' is not a payload format (\(names))")
            }
            format = parsed
        } else {
            format = provider == .acrobits ? .acrobits : .incomingCallEvent
        }
        if provider == .acrobits && format != .acrobits {
            throw appError(app, "format", .invalidValue,
                           "the Acrobits gateway takes its own payload only: use format = \"acrobits\" or leave it out")
        }
        var section = AppSection(name: app.name, appID: appID, provider: provider, format: format)

        let inline = text("template")
        let templatePath = text("template_file")
        if format == .template {
            switch (inline, templatePath) {
            case (nil, nil):
                throw appError(app, "format", .invalidValue, "format = \"template\" needs template or template_file")
            case (.some, .some):
                throw appError(app, "template_file", .invalidValue, "set template or template_file, not both")
            case (let inline?, nil):
                section.template = inline
            case (nil, let path?):
                section.templateFile = try appFile(app, "template_file", path)
            }
        } else if inline != nil || templatePath != nil {
            throw appError(app, inline != nil ? "template" : "template_file", .invalidValue,
                           "is used only with format = \"template\"")
        }

        if provider == .acrobits && app.values["url"] != nil {
            throw appError(app, "url", .invalidValue, "Acrobits apps use the gateway of [push] gateway_url")
        }
        if provider == .acrobits && (raw.value(key("push", "gateway_url")).map { $0 == .string("") } ?? false) {
            throw appError(app, "provider", .invalidValue,
                           "acrobits needs the gateway: [push] gateway_url is \"\" (no gateway)")
        }
        if let url = text("url") {
            let lower = url.lowercased()
            guard lower.hasPrefix("http://") || lower.hasPrefix("https://"), url.count > 8,
                  !url.contains(where: { $0.isWhitespace }) else {
                throw appError(app, "url", .invalidValue, "'\(url)' is not an http:// or https:// URL")
            }
            section.url = url
        }

        section.missed = try notice(app, "missed", provider: provider)
        section.answeredElsewhere = try notice(app, "answered_elsewhere", provider: provider)
        if let sound = text("sound") {
            guard sound.count <= 255, !sound.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw appError(app, "sound", .invalidValue,
                               "'\(sound)' is not a sound name (at most 255 characters, no control characters; \"\" = none)")
            }
            section.sound = sound
        }

        if let pnParam = text("pn_param") {
            guard provider != .acrobits else {
                throw appError(app, "pn_param", .invalidValue,
                               "is a setting of apns and fcm apps: RFC 8599 phones are pushed with the operator's own credentials")
            }
            guard (1...256).contains(pnParam.count),
                  pnParam.allSatisfy({ $0.isASCII && (33...126).contains($0.asciiValue!) && !";<>\"?,%".contains($0) }) else {
                throw appError(app, "pn_param", .invalidValue,
                               "'\(pnParam)' is not a pn-param value (1 to 256 printable ASCII characters, no spaces or ; < > \" ? , %)")
            }
            section.pnParam = pnParam
        }

        switch provider {
        case .acrobits:
            break
        case .apns:
            section.keyFile = try appFile(app, "key_file", required("key_file", "the .p8 signing key file from Apple"))
            let keyID = try required("key_id", "the signing key's 10-character key id")
            guard Self.isAppleID(keyID) else {
                throw appError(app, "key_id", .invalidValue, "'\(keyID)' is not an Apple key id (10 letters and digits)")
            }
            let teamID = try required("team_id", "the 10-character team id of the developer account")
            guard Self.isAppleID(teamID) else {
                throw appError(app, "team_id", .invalidValue, "'\(teamID)' is not an Apple team id (10 letters and digits)")
            }
            let bundleID = try required("bundle_id", "the app's bundle id, e.g. com.example.phone")
            guard bundleID.count <= 155, !bundleID.hasSuffix(".voip"),
                  bundleID.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }) else {
                throw appError(app, "bundle_id", .invalidValue,
                               "'\(bundleID)' is not a bundle id (letters, digits, '.' and '-'; without the .voip suffix)")
            }
            section.keyID = keyID
            section.teamID = teamID
            section.bundleID = bundleID
            switch text("environment")?.lowercased() ?? "production" {
            case "production": section.sandbox = false
            case "sandbox", "development": section.sandbox = true
            case let other:
                throw appError(app, "environment", .invalidValue, "'\(other)' is not production or sandbox")
            }
        case .fcm:
            section.serviceAccountFile = try appFile(
                app, "service_account_file",
                required("service_account_file", "the service-account JSON file from the Firebase console"))
        }
        return section
    }

    /// The `<kind>_notification`, `<kind>_title`, `<kind>_body` and
    /// `<kind>_category` keys of one kind of call ending (`missed`,
    /// `answered_elsewhere`). The templates' Mustache syntax is checked when
    /// the push settings are made (`PushApps`); here, that they belong to
    /// the provider and that a missed-call alert keeps some text.
    private func notice(_ app: RawApp, _ kind: String, provider: AppProvider) throws(ConfigError) -> AppNoticeSection {
        func text(_ name: String) -> String? {
            if case .string(let value)? = app.values[name] { return value }
            return nil
        }
        var notice = AppNoticeSection()
        if case .boolean(let enabled)? = app.values["\(kind)_notification"] { notice.enabled = enabled }
        for part in ["title", "body"] where provider == .acrobits && app.values["\(kind)_\(part)"] != nil {
            throw appError(app, "\(kind)_\(part)", .invalidValue,
                           "is a setting of apns and fcm apps: the Acrobits gateway writes its own notifications")
        }
        notice.title = text("\(kind)_title")
        notice.body = text("\(kind)_body")
        if kind == "missed", let title = notice.title, let body = notice.body,
           title.allSatisfy(\.isWhitespace), body.allSatisfy(\.isWhitespace) {
            throw appError(app, "missed_body", .invalidValue,
                           "missed_title and missed_body are both empty: a missed-call alert needs a title or a body (missed_notification = false sends none)")
        }
        if let category = text("\(kind)_category"), !category.isEmpty {
            guard category.count <= 255, !category.contains(where: \.isWhitespace),
                  !category.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw appError(app, "\(kind)_category", .invalidValue,
                               "'\(category)' is not a notification category id (1 to 255 characters, no spaces; \"\" = none)")
            }
            notice.category = category
        }
        return notice
    }

    private static func isAppleID(_ text: String) -> Bool {
        text.count == 10 && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }

    private func appFile(_ app: RawApp, _ name: String, _ path: String) throws(ConfigError) -> String {
        let resolved = PathResolver.resolve(path, against: directory)
        guard isReadableFile(resolved) else {
            var message = "cannot read '\(resolved)'"
            if !path.hasPrefix("/") { message += " ('\(path)' relative to the directory of \(file))" }
            throw appError(app, name, .missingFile, message)
        }
        return resolved
    }

    private func appError(_ app: RawApp, _ name: String, _ kind: ConfigErrorKind, _ message: String) -> ConfigError {
        ConfigError(kind: kind, file: file, key: "apps.\(app.name).\(name)", line: app.lines[name] ?? app.line,
                    message: "[apps.\(app.name)] \(name): \(message)")
    }

    // MARK: Webhook

    private func webhook(_ defaults: WebhookSection, domains served: [String],
                         push: PushSection) throws(ConfigError) -> WebhookSection {
        var section = defaults
        let urlKey = key("webhook", "url"), secretsKey = key("webhook", "secrets")
        section.timeout = try integer(key("webhook", "timeout")) ?? defaults.timeout
        if let text = string(urlKey) {
            if let problem = Self.urlProblem(text) { throw invalid(urlKey, problem) }
            section.url = text
        }
        if let secrets = strings(secretsKey) {
            if let problem = Self.secretsProblem(secrets) { throw invalid(secretsKey, problem) }
            section.secrets = secrets
        }
        if !section.url.isEmpty && section.secrets.isEmpty {
            throw invalid(secretsKey, "missing: the webhook at url is signed; set secrets = [\"<at least \(WebhookSection.minimumSecretLength) characters>\"] (or SIPWAKE_WEBHOOK_SECRETS)")
        }
        for table in raw.webhookDomains {
            let domain = try webhookDomain(table, served: served, global: section)
            if section.domains.contains(where: { $0.domain == domain.domain }) {
                throw webhookDomainError(table, nil, "is listed twice")
            }
            section.domains.append(domain)
        }
        if section.isConfigured && !push.enabled {
            throw invalid(key("push", "enabled"),
                          "the webhook is posted by the push client: [push] enabled must be true when [webhook] is set")
        }
        return section
    }

    private func webhookDomain(_ table: RawWebhookDomain, served: [String],
                               global: WebhookSection) throws(ConfigError) -> WebhookDomainSection {
        let name: String
        if let host = HostSyntax.bareHost(table.name) {
            name = host.contains(":") ? "[\(host.lowercased())]" : host.lowercased()
        } else {
            name = table.name.lowercased()
        }
        guard served.contains(name) else {
            throw webhookDomainError(table, nil, "'\(table.name)' is not one of [sip] domains (\(served.joined(separator: ", ")))")
        }
        var domain = WebhookDomainSection(domain: name)
        if case .string(let url)? = table.values["url"] {
            if let problem = Self.urlProblem(url) { throw webhookDomainError(table, "url", problem) }
            domain.url = url
        }
        if case .strings(let secrets)? = table.values["secrets"] {
            if let problem = Self.secretsProblem(secrets) { throw webhookDomainError(table, "secrets", problem) }
            domain.secrets = secrets
        }
        if case .integer(let timeout)? = table.values["timeout"] {
            guard (1...30).contains(timeout) else {
                throw webhookDomainError(table, "timeout", "\(timeout) is out of range (1...30)")
            }
            domain.timeout = timeout
        }
        let url = domain.url ?? global.url
        if !url.isEmpty && (domain.secrets ?? global.secrets).isEmpty {
            throw webhookDomainError(table, "secrets", "missing: the webhook at url is signed; set secrets here or in [webhook]")
        }
        return domain
    }

    /// Why `text` is not a webhook URL; nil when it is one or "".
    private static func urlProblem(_ text: String) -> String? {
        guard !text.isEmpty else { return nil }
        let lower = text.lowercased()
        guard (lower.hasPrefix("http://") || lower.hasPrefix("https://")), text.count > 8,
              !text.contains(where: { $0.isWhitespace }) else {
            return "'\(text)' is not an http:// or https:// URL (or \"\" for none)"
        }
        return nil
    }

    /// Why `secrets` cannot sign webhooks; nil when they can. Never quotes a secret.
    private static func secretsProblem(_ secrets: [String]) -> String? {
        guard secrets.count <= WebhookSection.maximumSecrets else {
            return "at most \(WebhookSection.maximumSecrets) secrets (the current one, then the previous one while backends move over), got \(secrets.count)"
        }
        for (index, secret) in secrets.enumerated() {
            guard secret.count >= WebhookSection.minimumSecretLength else {
                return "secret \(index + 1) is \(secret.count) characters; at least \(WebhookSection.minimumSecretLength) are required (e.g. openssl rand -hex 32)"
            }
            guard secret.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0.asciiValue.map { $0 >= 0x21 && $0 < 0x7f } == true }) else {
                return "secret \(index + 1) must be printable ASCII without spaces"
            }
        }
        if secrets.count == 2 && secrets[0] == secrets[1] { return "the two secrets are the same" }
        return nil
    }

    private func webhookDomainError(_ table: RawWebhookDomain, _ name: String?, _ message: String) -> ConfigError {
        let label = "[webhook.domains.\"\(table.name)\"]" + (name.map { " \($0)" } ?? "")
        return ConfigError(kind: .invalidValue, file: file,
                           key: "webhook.domains.\(table.name)" + (name.map { ".\($0)" } ?? ""),
                           line: name.flatMap { table.lines[$0] } ?? table.line, message: "\(label): \(message)")
    }

    private func log(_ defaults: LogSection) throws(ConfigError) -> LogSection {
        var section = defaults
        let levelKey = key("log", "level")
        if let text = string(levelKey) {
            guard let level = LogLevelName(rawValue: text.lowercased()) else {
                let names = LogLevelName.allCases.map(\.rawValue).joined(separator: ", ")
                throw invalid(levelKey, "'\(text)' is not a log level (\(names))")
            }
            section.level = level
        }
        let formatKey = key("log", "format")
        if let text = string(formatKey) {
            guard let format = LogFormat(rawValue: text.lowercased()) else {
                throw invalid(formatKey, "'\(text)' is not a log format (text, json)")
            }
            section.format = format
        }
        return section
    }

    // MARK: Values

    private func key(_ section: String, _ name: String) -> ConfigKey {
        guard let key = ConfigSchema.key(section: section, name: name) else {
            preconditionFailure("ConfigSchema has no key \(section).\(name)")
        }
        return key
    }

    private func string(_ key: ConfigKey) -> String? {
        if case .string(let value)? = raw.value(key) { return value }
        return nil
    }

    private func boolean(_ key: ConfigKey) -> Bool? {
        if case .boolean(let value)? = raw.value(key) { return value }
        return nil
    }

    private func strings(_ key: ConfigKey) -> [String]? {
        if case .strings(let value)? = raw.value(key) { return value }
        return nil
    }

    /// The integer set for `key`, checked against the schema's range; nil when unset.
    private func integer(_ key: ConfigKey) throws(ConfigError) -> Int? {
        guard case .integer(let value)? = raw.value(key) else { return nil }
        if case .integer(let range) = key.kind, !range.contains(value) {
            throw invalid(key, "\(value) is out of range (\(range.lowerBound)...\(range.upperBound))")
        }
        return value
    }

    private func existingFile(_ path: String, for key: ConfigKey) throws(ConfigError) -> String {
        let resolved = PathResolver.resolve(path, against: directory)
        guard isReadableFile(resolved) else {
            var message = "cannot read '\(resolved)'"
            if !path.hasPrefix("/") { message += " ('\(path)' relative to the directory of \(file))" }
            throw error(key, .missingFile, message)
        }
        return resolved
    }

    private func invalid(_ key: ConfigKey, _ message: String) -> ConfigError {
        error(key, .invalidValue, message)
    }

    private func error(_ key: ConfigKey, _ kind: ConfigErrorKind, _ message: String) -> ConfigError {
        var error = ConfigError(kind: kind, file: file, key: key.path, message: "\(key.label): \(message)")
        switch raw.source(key) {
        case .defaultValue: break
        case .file(let line): error.line = line
        case .environment(let name): error.environmentVariable = name
        }
        return error
    }
}
