import ArgumentParser

struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "Work with config files.", subcommands: [ConfigCheckCommand.self])
}
