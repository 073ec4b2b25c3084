import Foundation
import Testing
@testable import Config

@Suite struct ShippedConfigTests {
    private var samplePath: String { ConfigTestSupport.repositoryRoot.appendingPathComponent("etc/sipwake.toml").path }
    private var docsPath: String { ConfigTestSupport.repositoryRoot.appendingPathComponent("docs/configuration.md").path }

    @Test func sampleLoadsAsTheDefaults() throws {
        let config = try SipwakeConfig.load(path: samplePath, environment: [:])
        var expected = SipwakeConfig.defaults
        expected.database.path = ConfigTestSupport.repositoryRoot.appendingPathComponent("var/sipwake.sqlite").standardized.path
        #expect(config == expected)
        #expect(config.sip.listen.map(\.description) == ["udp:127.0.0.1:5060", "tcp:127.0.0.1:5060"])
        #expect(config.sip.domains == ["localhost", "127.0.0.1"])
        #expect(config.auth.enabled)
        #expect(config.auth.effectiveRealm == "localhost")
    }

    @Test func labConfigLoadsWithPushesToTheLocalSink() throws {
        let path = ConfigTestSupport.repositoryRoot.appendingPathComponent("etc/sipwake-lab.toml").path
        let config = try SipwakeConfig.load(path: path, environment: [:])
        #expect(config.push.gatewayURL == "http://127.0.0.1:8090/pnm2/send")
        #expect(config.auth.isTrusted("127.0.0.2"))
        #expect(!config.auth.isTrusted("127.0.0.1"))
        #expect(config.sip.listen.map(\.description) == ["udp:127.0.0.1:5070", "tcp:127.0.0.1:5070"])
    }

    @Test func sampleHasEveryKeyWithACommentAbove() throws {
        let text = try String(contentsOfFile: samplePath, encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        let locator = TOMLKeyLocator(text: text)
        for key in ConfigSchema.keys {
            let line = try #require(locator.line(of: [key.section, key.name]), "\(key.path) is missing from etc/sipwake.toml")
            #expect(line >= 2 && lines[line - 2].hasPrefix("#"), "\(key.path) in etc/sipwake.toml has no comment above it")
        }
    }

    /// The commented `[apps.*]` examples at the end of the sample, with their
    /// leading "# " removed as its comment says, load as written.
    @Test func sampleAppsLoadWhenUncommented() throws {
        let text = try String(contentsOfFile: samplePath, encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        let first = try #require(lines.firstIndex { $0.hasPrefix("# [apps.") })
        // Prose between the tables ("An Android app …") stays out.
        let apps = lines[first...].filter { $0.hasPrefix("# ") }.map { String($0.dropFirst(2)) }
            .filter { !($0.first?.isUppercase ?? false) }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("keys/AuthKey_ABC123DEFG.p8", "-----BEGIN PRIVATE KEY-----\n")
        try directory.write("keys/firebase-service-account.json", "{}")
        let file = try directory.write("sipwake.toml", apps.joined(separator: "\n"))
        let config = try SipwakeConfig.load(path: file, environment: [:])
        let ios = try #require(config.apps.first { $0.name == "phone-ios" })
        #expect(ios.missed.title == "Missed call from {{caller}}{{^caller}}an unknown number{{/caller}}")
        #expect(ios.missed.category == "MISSED_CALL")
        #expect(ios.sound == "missed.caf")
        #expect(ios.answeredElsewhere.enabled && ios.answeredElsewhere.title == "Answered on another device")
        let android = try #require(config.apps.first { $0.name == "phone-android" })
        #expect(android.missed.body == "{{caller}}{{^caller}}Unknown caller{{/caller}}")
        #expect(!android.answeredElsewhere.enabled)
    }

    @Test func docsDescribeEveryAppKey() throws {
        for doc in ["docs/configuration.md", "docs/push.md"] {
            let text = try String(contentsOfFile: ConfigTestSupport.repositoryRoot.appendingPathComponent(doc).path,
                                  encoding: .utf8)
            for key in ConfigSchema.appKeys.keys.sorted() {
                #expect(text.contains("| `\(key)` |"), "\(doc) has no row for the [apps.NAME] key \(key)")
            }
        }
    }

    @Test func docsDescribeEveryKeyAndVariable() throws {
        let text = try String(contentsOfFile: docsPath, encoding: .utf8)
        for key in ConfigSchema.keys {
            #expect(text.contains("`\(key.path)`"), "docs/configuration.md does not describe \(key.path)")
            #expect(text.contains("`\(key.environmentVariable)`"), "docs/configuration.md does not name \(key.environmentVariable)")
        }
    }
}
