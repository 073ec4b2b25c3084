import Testing
@testable import Config

/// `[database] url`: PostgreSQL instead of the SQLite file, from the file or
/// `SIPWAKE_DATABASE_URL`; a bad URL or both settings refused with an error
/// that never repeats the password.
@Suite struct DatabaseURLTests {
    private func parse(_ toml: String = "", environment: [String: String] = [:]) throws -> SipwakeConfig {
        try SipwakeConfig.parse(toml, file: ConfigTestSupport.file, environment: environment)
    }

    @Test func aURLSelectsPostgreSQL() throws {
        let config = try parse("[database]\nurl = \"postgres://sipwake:p%40ss@db.example.com:6543/sip\"")
        let url = try #require(config.database.url)
        #expect(url == DatabaseURL(host: "db.example.com", port: 6543, username: "sipwake", password: "p@ss",
                                   database: "sip"))
        #expect(config.database.displayName == "postgresql db.example.com:6543/sip")
    }

    @Test func thePortDefaultsAndIPv6HostsKeepTheirBrackets() throws {
        let url = try #require(try parse("[database]\nurl = \"postgresql://u@[::1]/sip\"").database.url)
        #expect(url.host == "::1")
        #expect(url.port == 5432)
        #expect(url.password == nil)
        #expect(url.description == "[::1]:5432/sip")
    }

    @Test func withoutAURLTheSQLiteFileStays() throws {
        #expect(try parse().database.url == nil)
        #expect(try parse("[database]\nurl = \"\"").database.url == nil)
    }

    @Test func theEnvironmentSetsIt() throws {
        let config = try parse(environment: ["SIPWAKE_DATABASE_URL": "postgres://a:b@127.0.0.1:5433/x"])
        #expect(config.database.url?.port == 5433)
    }

    @Test(arguments: [
        ("mysql://u:secret-pw@h/db", "the scheme must be postgres:// or postgresql://"),
        ("postgres://u:secret-pw@h", "no database name"),
        ("postgres://u:secret-pw@h/db/more", "no database name"),
        ("postgres://:secret-pw@h/db", "no user"),
        ("postgres://u:secret-pw@/db", "no valid host"),
        ("postgres://u:secret-pw@h:0/db", "the port must be 1 to 65535"),
        ("postgres://u:secret-pw@h/db?sslmode=require", "options after '?'"),
        ("not a url secret-pw", "expected postgres://"),
    ])
    func aBadURLIsRefusedWithoutItsPassword(_ url: String, _ reason: String) throws {
        let error = try #require(ConfigTestSupport.parseError("[database]\nurl = \"\(url)\""))
        #expect(error.kind == .invalidValue)
        #expect(error.key == "database.url")
        #expect(error.line == 2)
        #expect(error.description.contains(reason), "\(error.description)")
        #expect(!error.description.contains("secret-pw"), "the password is never shown")
    }

    @Test func pathAndURLTogetherAreRefused() throws {
        let error = try #require(ConfigTestSupport.parseError(
            "[database]\npath = \"/var/lib/sipwake.sqlite\"\nurl = \"postgres://u:secret-pw@h/db\""))
        #expect(error.key == "database.url")
        #expect(error.description.contains("not both"))
        #expect(!error.description.contains("secret-pw"))
    }

    @Test func aURLFromTheEnvironmentOverridesTheFilesPath() throws {
        let config = try parse("[database]\npath = \"/var/lib/sipwake.sqlite\"",
                               environment: ["SIPWAKE_DATABASE_URL": "postgres://u:pw@127.0.0.1/db"])
        #expect(config.database.url?.database == "db")
        let both = ConfigTestSupport.parseError("", environment: [
            "SIPWAKE_DATABASE_URL": "postgres://u:secret-pw@127.0.0.1/db", "SIPWAKE_DATABASE_PATH": "/x.sqlite"])
        #expect(both?.key == "database.url")
        #expect(both.map { !$0.description.contains("secret-pw") } == true)
    }
}
