import Foundation
import Testing
import Config

/// `[apps.NAME]`: the apps woken with the operator's own credentials.
@Suite struct AppSectionTests {
    /// Loads `text` from a config file in a directory holding keys/voip.p8,
    /// keys/firebase.json and templates/call.mustache.
    private func load(_ text: String) throws -> Result<SipwakeConfig, ConfigError> {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("keys/voip.p8", "-----BEGIN PRIVATE KEY-----\n")
        try directory.write("keys/firebase.json", "{}")
        try directory.write("templates/call.mustache", "{}")
        let file = try directory.write("etc/sipwake.toml", text)
        do {
            let config = try SipwakeConfig.load(path: file, environment: [:])
            // Paths inside the temporary directory, made relative to it for the checks.
            var relative = config
            relative.apps = config.apps.map { app in
                var app = app
                app.keyFile = app.keyFile.map { $0.replacingOccurrences(of: directory.path, with: "") }
                app.serviceAccountFile = app.serviceAccountFile.map { $0.replacingOccurrences(of: directory.path, with: "") }
                app.templateFile = app.templateFile.map { $0.replacingOccurrences(of: directory.path, with: "") }
                return app
            }
            return .success(relative)
        } catch {
            return .failure(error)
        }
    }

    private func error(_ text: String) throws -> ConfigError {
        guard case .failure(let error) = try load(text) else {
            Issue.record("accepted: \(text)")
            throw CancellationError()
        }
        return error
    }

    static let apns = """
        [apps.phone-ios]
        app_id = "com.example.phone"
        provider = "apns"
        key_file = "../keys/voip.p8"
        key_id = "ABC123DEFG"
        team_id = "DEF123GHIJ"
        bundle_id = "com.example.phone"
        environment = "sandbox"
        url = "https://127.0.0.1:8443"
        """

    static let fcm = """
        [apps.phone-android]
        app_id = "com.example.phone.android"
        provider = "fcm"
        service_account_file = "../keys/firebase.json"
        format = "template"
        template_file = "../templates/call.mustache"
        """

    @Test func apnsAndFCMAppsAreReadWithTheirFilesResolved() throws {
        let config = try load(Self.apns + "\n" + Self.fcm).get()
        #expect(config.apps == [
            AppSection(name: "phone-ios", appID: "com.example.phone", provider: .apns, format: .incomingCallEvent,
                       keyFile: "/keys/voip.p8", keyID: "ABC123DEFG", teamID: "DEF123GHIJ",
                       bundleID: "com.example.phone", sandbox: true, url: "https://127.0.0.1:8443"),
            AppSection(name: "phone-android", appID: "com.example.phone.android", provider: .fcm, format: .template,
                       templateFile: "/templates/call.mustache", serviceAccountFile: "/keys/firebase.json"),
        ])
    }

    @Test func noAppsByDefaultAndAnAcrobitsAppTakesTheAcrobitsFormat() throws {
        #expect(try load("").get().apps.isEmpty)
        let config = try load("[apps.softphone]\napp_id = \"com.acrobits.softphone\"\nprovider = \"acrobits\"\n").get()
        #expect(config.apps.map(\.format) == [.acrobits])
        let wrong = try error("[apps.softphone]\napp_id = \"x\"\nprovider = \"acrobits\"\nformat = \"incoming-call-event\"\n")
        #expect(wrong.key == "apps.softphone.format")
    }

    @Test func aMissingKeyFileIsNamedWithItsResolvedPath() throws {
        let error = try error(Self.apns.replacingOccurrences(of: "voip.p8", with: "AuthKey.p8"))
        #expect(error.kind == .missingFile)
        #expect(error.key == "apps.phone-ios.key_file")
        #expect(error.line == 4)
        #expect(error.description.contains("[apps.phone-ios] key_file: cannot read '"))
        #expect(error.description.contains("/keys/AuthKey.p8' ('../keys/AuthKey.p8' relative to the directory of"))
    }

    @Test func everyMissingRequiredKeyIsNamed() throws {
        for key in ["app_id", "provider", "key_file", "key_id", "team_id", "bundle_id"] {
            let text = Self.apns.split(separator: "\n").filter { !$0.hasPrefix(key + " ") }.joined(separator: "\n")
            let error = try error(text)
            #expect(error.key == "apps.phone-ios.\(key)", "\(key)")
            #expect(error.message.contains("missing: set \(key) to"), "\(error.message)")
        }
        let noAccount = try error(Self.fcm.split(separator: "\n").filter { !$0.hasPrefix("service_account_file") }
            .joined(separator: "\n"))
        #expect(noAccount.key == "apps.phone-android.service_account_file")
    }

    @Test func badValuesAreRefusedWithTheirKey() throws {
        let cases: [(String, String, String)] = [
            ("provider = \"apns\"", "provider = \"pushy\"", "provider"),
            ("key_id = \"ABC123DEFG\"", "key_id = \"ABC\"", "key_id"),
            ("team_id = \"DEF123GHIJ\"", "team_id = \"DEF 23GHIJ\"", "team_id"),
            ("bundle_id = \"com.example.phone\"", "bundle_id = \"com.example.phone.voip\"", "bundle_id"),
            ("environment = \"sandbox\"", "environment = \"staging\"", "environment"),
            ("url = \"https://127.0.0.1:8443\"", "url = \"ftp://x\"", "url"),
        ]
        for (from, to, key) in cases {
            let error = try error(Self.apns.replacingOccurrences(of: from, with: to))
            #expect(error.key == "apps.phone-ios.\(key)", "\(to)")
            #expect(error.kind == .invalidValue)
        }
    }

    @Test func pnParamIsReadForDirectAppsAndRefusedWhereItCannotApply() throws {
        let config = try load(Self.apns + "\npn_param = \"DEF123GHIJ.com.example.other\"\n" + Self.fcm
                              + "\npn_param = \"929724111839\"\n").get()
        #expect(config.apps.map(\.pnParam) == ["DEF123GHIJ.com.example.other", "929724111839"])
        #expect(try load(Self.apns).get().apps.first?.pnParam == nil, "the default is derived, not stored")
        let spaced = try error(Self.fcm + "\npn_param = \"92972 4111839\"\n")
        #expect(spaced.key == "apps.phone-android.pn_param")
        let semicolon = try error(Self.fcm + "\npn_param = \"a;b\"\n")
        #expect(semicolon.key == "apps.phone-android.pn_param")
        let escaped = try error(Self.fcm + "\npn_param = \"a%20b\"\n")
        #expect(escaped.key == "apps.phone-android.pn_param", "a phone's escapes are undone before matching")
        let gateway = try error("""
            [apps.acro]
            app_id = "cz.acrobits.softphone"
            provider = "acrobits"
            pn_param = "x"
            """)
        #expect(gateway.key == "apps.acro.pn_param")
        #expect(gateway.message.contains("is a setting of apns and fcm apps"))
    }

    @Test func anotherProvidersSettingIsRefused() throws {
        let error = try error(Self.fcm + "\nkey_id = \"ABC123DEFG\"\n")
        #expect(error.key == "apps.phone-android.key_id")
        #expect(error.message.contains("is a setting of apns apps; this app's provider is fcm"))
    }

    @Test func templatesNeedTheTemplateFormatAndExactlyOneSource() throws {
        let both = try error(Self.fcm + "\ntemplate = \"{}\"\n")
        #expect(both.key == "apps.phone-android.template_file")
        let stray = try error(Self.apns + "\ntemplate = \"{}\"\n")
        #expect(stray.key == "apps.phone-ios.template")
        let none = try error(Self.fcm.replacingOccurrences(of: "template_file = \"../templates/call.mustache\"", with: ""))
        #expect(none.key == "apps.phone-android.format")
    }

    @Test func anAppIDListedTwiceIsRefused() throws {
        let error = try error(Self.apns + "\n" + Self.apns.replacingOccurrences(of: "phone-ios", with: "phone-ios-2"))
        #expect(error.key == "apps.phone-ios-2.app_id")
        #expect(error.message.contains("already the app id of [apps.phone-ios]"))
    }

    @Test func unknownKeysAndBadNamesAreRefused() throws {
        let typo = try error(Self.apns + "\nteam = \"x\"\n")
        #expect(typo.kind == .unknownKey)
        #expect(typo.message.contains("unknown key 'team' in [apps.phone-ios]"))
        let name = try error("[apps.\"Phone App\"]\napp_id = \"x\"\nprovider = \"fcm\"\n")
        #expect(name.message.contains("an app's name is 1 to 32 lowercase letters"))
        let notTable = try error("apps = 3\n")
        #expect(notTable.kind == .wrongType)
    }

    // MARK: End-of-call notifications

    @Test func notificationKeysAreReadPerKind() throws {
        let config = try load(Self.apns + """

            missed_title = "Missed call from {{caller}}"
            missed_body = "{{caller_number}}"
            missed_category = "MISSED_CALL"
            answered_elsewhere_notification = false
            answered_elsewhere_title = "kept while switched off"
            sound = "ring.caf"
            """).get()
        let app = try #require(config.apps.first)
        #expect(app.missed == AppNoticeSection(enabled: true, title: "Missed call from {{caller}}", body: "{{caller_number}}",
                                               category: "MISSED_CALL"))
        #expect(app.answeredElsewhere == AppNoticeSection(enabled: false, title: "kept while switched off"))
        #expect(app.sound == "ring.caf")

        let plain = try #require(try load(Self.fcm).get().apps.first)
        #expect(plain.missed == AppNoticeSection() && plain.answeredElsewhere == AppNoticeSection())
        #expect(plain.sound == nil)
    }

    @Test func theSwitchesAndTheSoundWorkForGatewayAppsButTheTextDoesNot() throws {
        let acrobits = "[apps.softphone]\napp_id = \"com.acrobits.softphone\"\nprovider = \"acrobits\"\n"
        let config = try load(acrobits + "missed_notification = false\nsound = \"\"\n").get()
        #expect(config.apps.first?.missed.enabled == false)
        #expect(config.apps.first?.sound == "")
        for key in ["missed_title", "missed_body", "answered_elsewhere_title", "answered_elsewhere_body"] {
            let error = try error(acrobits + "\(key) = \"x\"\n")
            #expect(error.key == "apps.softphone.\(key)")
            #expect(error.message.contains("is a setting of apns and fcm apps"), "\(error.message)")
        }
        let category = try error(acrobits + "missed_category = \"X\"\n")
        #expect(category.key == "apps.softphone.missed_category")
    }

    @Test func categoriesAreAnAPNsSetting() throws {
        let error = try error(Self.fcm + "\nanswered_elsewhere_category = \"ANSWERED\"\n")
        #expect(error.key == "apps.phone-android.answered_elsewhere_category")
        #expect(error.message.contains("is a setting of apns apps; this app's provider is fcm"))
    }

    @Test func badNotificationValuesAreRefusedWithTheirKey() throws {
        let cases: [(String, String)] = [
            ("missed_category = \"MISSED CALL\"", "missed_category"),
            ("answered_elsewhere_category = \"A\\u0007\"", "answered_elsewhere_category"),
            ("sound = \"ring\\n.caf\"", "sound"),
            ("missed_title = \"\"\nmissed_body = \" \"", "missed_body"),
        ]
        for (line, key) in cases {
            let error = try error(Self.apns + "\n" + line + "\n")
            #expect(error.key == "apps.phone-ios.\(key)", "\(line)")
            #expect(error.kind == .invalidValue, "\(line)")
        }
        let wrongType = try error(Self.apns + "\nmissed_notification = \"no\"\n")
        #expect(wrongType.kind == .wrongType)
        #expect(wrongType.key == "apps.phone-ios.missed_notification")
        // An empty category is none; one empty part of a missed-call alert is fine.
        let config = try load(Self.apns + "\nmissed_category = \"\"\nmissed_title = \"\"\n").get()
        #expect(config.apps.first?.missed.category == nil)
        #expect(config.apps.first?.missed.title == "")
    }

    @Test func anEmptyGatewayURLMeansNoGateway() throws {
        #expect(try load("[push]\ngateway_url = \"\"\n").get().push.gatewayURL == "")
    }
}
