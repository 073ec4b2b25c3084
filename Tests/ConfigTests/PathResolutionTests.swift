import Foundation
import Testing
import Config

@Suite struct PathResolutionTests {
    @Test func databasePathIsRelativeToTheConfigFilesDirectory() throws {
        let config = try SipwakeConfig.parse("", file: "/srv/sipwake/etc/sipwake.toml", environment: [:])
        #expect(config.database.path == "/srv/sipwake/var/sipwake.sqlite")

        let nested = try SipwakeConfig.parse(
            "[database]\npath = \"./data/./db/sipwake.sqlite\"", file: "/opt/sw/sipwake.toml", environment: [:])
        #expect(nested.database.path == "/opt/sw/data/db/sipwake.sqlite")
    }

    @Test func absoluteAndMemoryPathsAreKept() throws {
        let absolute = try SipwakeConfig.parse(
            "[database]\npath = \"/var/lib/sipwake/db.sqlite\"", file: "/srv/etc/sipwake.toml", environment: [:])
        #expect(absolute.database.path == "/var/lib/sipwake/db.sqlite")
        let memory = try SipwakeConfig.parse(
            "[database]\npath = \":memory:\"", file: "/srv/etc/sipwake.toml", environment: [:])
        #expect(memory.database.path == ":memory:")
    }

    @Test func relativeConfigFileIsTakenFromTheCurrentDirectory() throws {
        let config = try SipwakeConfig.parse("", file: "etc/sipwake.toml", environment: [:])
        let currentDirectory = FileManager.default.currentDirectoryPath
        let expected = URL(fileURLWithPath: currentDirectory).appendingPathComponent("var/sipwake.sqlite").standardized.path
        #expect(config.database.path == expected)
        #expect(config.database.path.hasPrefix("/"))
    }

    @Test func environmentPathIsAlsoRelativeToTheConfigFile() throws {
        let config = try SipwakeConfig.parse(
            "", file: "/srv/sipwake/etc/sipwake.toml", environment: ["SIPWAKE_DATABASE_PATH": "db.sqlite"])
        #expect(config.database.path == "/srv/sipwake/etc/db.sqlite")
    }

    @Test func tlsFilesAreResolvedAndMustExist() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("certs/server.pem", "-----BEGIN CERTIFICATE-----\n")
        try directory.write("certs/server.key", "-----BEGIN PRIVATE KEY-----\n")
        let file = try directory.write("etc/sipwake.toml", """
            [sip]
            listen = ["tls:0.0.0.0:5061", "udp:0.0.0.0:5060"]
            [tls]
            certificate = "../certs/server.pem"
            key = "../certs/server.key"
            """)
        let config = try SipwakeConfig.load(path: file, environment: [:])
        #expect(config.tls.certificate == directory.path + "/certs/server.pem")
        #expect(config.tls.key == directory.path + "/certs/server.key")
        #expect(config.tls.isConfigured)
        #expect(config.sip.listen.first == ListenAddress(transport: .tls, host: "0.0.0.0", port: 5061))
        #expect(config.database.path == directory.path + "/var/sipwake.sqlite")
    }

    @Test func missingKeyFileNamesTheResolvedPath() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("server.pem", "cert")
        let file = try directory.write("sipwake.toml", "[tls]\ncertificate = \"server.pem\"\nkey = \"server.key\"\n")
        var caught: ConfigError?
        do { _ = try SipwakeConfig.load(path: file, environment: [:]) } catch { caught = error }
        let error = try #require(caught)
        #expect(error.kind == .missingFile)
        #expect(error.key == "tls.key")
        #expect(error.line == 3)
        #expect(error.description.hasPrefix("\(file):3: [tls] key: cannot read '\(directory.path)/server.key'"))
    }

    @Test func unreadableFile() throws {
        var caught: ConfigError?
        do { _ = try SipwakeConfig.load(path: "/nonexistent/sipwake.toml", environment: [:]) } catch { caught = error }
        let error = try #require(caught)
        #expect(error.kind == .unreadable)
        #expect(error.file == "/nonexistent/sipwake.toml")
        #expect(error.description == "/nonexistent/sipwake.toml: cannot read the configuration file: no such file")

        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var caughtDirectory: ConfigError?
        do { _ = try SipwakeConfig.load(path: directory.path, environment: [:]) } catch { caughtDirectory = error }
        #expect(caughtDirectory?.kind == .unreadable)
        #expect(caughtDirectory?.description.contains("it is a directory") == true)
    }
}
