import ArgumentParser
import Config

struct ConfigCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check", abstract: "Validate a config file (and SIPWAKE_* overrides); exit 1 on any error.")

    @OptionGroup var options: ConfigOption

    func run() throws {
        let config = try options.load()
        print("ok: \(config.sip.listen.map(\.description).joined(separator: ", ")); domains \(config.sip.domains.joined(separator: ", ")); database \(config.database.path)")
    }
}
