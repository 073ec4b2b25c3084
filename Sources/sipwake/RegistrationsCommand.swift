import ArgumentParser

struct RegistrationsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "registrations", abstract: "Inspect and delete registered bindings.",
        subcommands: [RegistrationsListCommand.self, RegistrationsDeleteCommand.self])
}
