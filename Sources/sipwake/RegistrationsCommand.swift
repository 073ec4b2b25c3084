import ArgumentParser

struct RegistrationsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "registrations", abstract: "Inspect registered bindings.",
        subcommands: [RegistrationsListCommand.self])
}
