import Foundation
import Testing
import Config

/// `[webhook]` and `[webhook.domains."NAME"]`: the customer's backend.
@Suite struct WebhookSectionTests {
    static let secret = "0123456789abcdef0123456789abcdef"
    static let previous = "fedcba9876543210fedcba9876543210"

    private func parse(_ text: String, environment: [String: String] = [:]) throws -> SipwakeConfig {
        try SipwakeConfig.parse("[sip]\ndomains = [\"example.com\", \"other.example\"]\n" + text,
                                file: ConfigTestSupport.file, environment: environment)
    }

    private func error(_ text: String, environment: [String: String] = [:]) -> ConfigError? {
        ConfigTestSupport.parseError("[sip]\ndomains = [\"example.com\", \"other.example\"]\n" + text,
                                     environment: environment)
    }

    @Test func offByDefault() throws {
        let config = try parse("")
        #expect(config.webhook == WebhookSection())
        #expect(!config.webhook.isConfigured)
    }

    @Test func aGlobalWebhookWithTwoSecretsAndDomainOverrides() throws {
        let config = try parse("""
            [webhook]
            url = "https://backend.example/sipwake"
            secrets = ["\(Self.secret)", "\(Self.previous)"]
            timeout = 3
            [webhook.domains."Other.Example"]
            url = "https://other.example/hook"
            [webhook.domains."example.com"]
            url = ""
            """)
        #expect(config.webhook.url == "https://backend.example/sipwake")
        #expect(config.webhook.secrets == [Self.secret, Self.previous])
        #expect(config.webhook.timeout == 3)
        #expect(config.webhook.domains == [
            WebhookDomainSection(domain: "other.example", url: "https://other.example/hook"),
            WebhookDomainSection(domain: "example.com", url: ""),
        ])
        #expect(config.webhook.isConfigured)
        #expect(!"\(config.webhook)".contains(Self.secret), "secrets never show in a description")
    }

    @Test func secretsComeFromTheEnvironment() throws {
        let config = try parse("[webhook]\nurl = \"https://backend.example/sipwake\"",
                               environment: ["SIPWAKE_WEBHOOK_SECRETS": "\(Self.secret),\(Self.previous)"])
        #expect(config.webhook.secrets == [Self.secret, Self.previous])
    }

    @Test func aURLNeedsASecret() throws {
        let error = try #require(self.error("[webhook]\nurl = \"https://backend.example/sipwake\""))
        #expect(error.key == "webhook.secrets")
        #expect(error.message.contains("missing"))
    }

    @Test func aShortSecretIsRefusedWithoutShowingIt() throws {
        let error = try #require(self.error("[webhook]\nurl = \"https://b.example/x\"\nsecrets = [\"short-secret-value\"]"))
        #expect(error.key == "webhook.secrets")
        #expect(error.message.contains("at least 32"))
        #expect(!error.message.contains("short-secret-value"))
        #expect(!"\(error)".contains("short-secret-value"))
    }

    @Test func aSecretOfTheWrongTypeIsNotQuoted() throws {
        let error = try #require(self.error("[webhook]\nsecrets = \"\(Self.secret)\""))
        #expect(error.key == "webhook.secrets")
        #expect(!error.message.contains(Self.secret))
    }

    @Test func threeSecretsAreTooMany() throws {
        let third = String(repeating: "z", count: 40)
        let error = try #require(self.error("""
            [webhook]
            url = "https://b.example/x"
            secrets = ["\(Self.secret)", "\(Self.previous)", "\(third)"]
            """))
        #expect(error.message.contains("at most 2"))
    }

    @Test func theURLMustBeHTTP() throws {
        let error = try #require(self.error("[webhook]\nurl = \"ftp://b.example/x\"\nsecrets = [\"\(Self.secret)\"]"))
        #expect(error.key == "webhook.url")
    }

    @Test func anOverrideNamesAServedDomain() throws {
        let error = try #require(self.error("""
            [webhook]
            url = "https://b.example/x"
            secrets = ["\(Self.secret)"]
            [webhook.domains."nowhere.example"]
            url = "https://n.example/x"
            """))
        #expect(error.key == "webhook.domains.nowhere.example")
        #expect(error.message.contains("[sip] domains"))
    }

    @Test func anOverrideWithoutAnySecretIsRefused() throws {
        let error = try #require(self.error("[webhook.domains.\"example.com\"]\nurl = \"https://b.example/x\""))
        #expect(error.key == "webhook.domains.example.com.secrets")
    }

    @Test func anUnknownKeyInAnOverrideIsNamed() throws {
        let error = try #require(self.error("[webhook.domains.\"example.com\"]\nurll = \"https://b.example/x\""))
        #expect(error.key == "webhook.domains.example.com.urll")
        #expect(error.message.contains("did you mean 'url'"))
    }

    @Test func theWebhookNeedsThePushClient() throws {
        let error = try #require(self.error("""
            [push]
            enabled = false
            [webhook]
            url = "https://b.example/x"
            secrets = ["\(Self.secret)"]
            """))
        #expect(error.key == "push.enabled")
    }
}
