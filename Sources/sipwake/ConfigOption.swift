import ArgumentParser
import Config
import Foundation
import Push
import SIPWake

/// `--config FILE`, shared by every command.
struct ConfigOption: ParsableArguments {
    @Option(name: .long, help: "Config file (default: $SIPWAKE_CONFIG, else etc/sipwake.toml).")
    var config: String?

    func load() throws -> SipwakeConfig {
        do {
            return try ConfigLoader.load(config)
        } catch {
            throw CLIError(error.description)
        }
    }

    /// The file `load()` reads.
    var path: String { ConfigLoader.resolvePath(config, environment: ProcessInfo.processInfo.environment) }

    /// The configuration and its directly pushed apps, with their key files,
    /// service accounts and templates read and checked.
    func loadWithPushApps() throws -> (SipwakeConfig, [PushAppSettings]) {
        let config = try load()
        do {
            return (config, try PushApps.load(config, file: path))
        } catch {
            throw CLIError(error.description)
        }
    }
}
