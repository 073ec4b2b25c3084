import ArgumentParser

struct PushCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push", abstract: "Check push delivery to a user's devices.",
        subcommands: [PushTestCommand.self])
}
