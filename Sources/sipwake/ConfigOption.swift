import ArgumentParser
import Config
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
}
