import ArgumentParser
import Config
import Foundation
import Push
import SIPWake

/// `--config FILE`, shared by every command.
struct ConfigOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Config file.",
        discussion: "Default: $SIPWAKE_CONFIG, else etc/sipwake.toml in the current directory, else the sample "
            + "config of the checkout sipwake was built in, else \(ConfigLoader.installedPath).",
        valueName: "file"))
    var config: String?

    func load() throws -> SipwakeConfig {
        do {
            return try ConfigLoader.load(config)
        } catch {
            throw CLIError(error.description)
        }
    }

    /// The file `load()` reads.
    func path() throws -> String {
        do {
            return try ConfigLoader.resolvePath(config).get()
        } catch {
            throw CLIError(error.description)
        }
    }

    /// `path()`, absolute, for messages and logs.
    func absolutePath() throws -> String { URL(fileURLWithPath: try path()).standardizedFileURL.path }

    /// The configuration and its directly pushed apps, with their key files,
    /// service accounts and templates read and checked.
    func loadWithPushApps() throws -> (SipwakeConfig, [PushAppSettings]) {
        let config = try load()
        let file = try path()
        do {
            return (config, try PushApps.load(config, file: file))
        } catch {
            throw CLIError(error.description)
        }
    }
}
