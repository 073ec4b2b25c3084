import ArgumentParser

struct UsersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users", abstract: "Manage SIP users (stored as digest HA1 only).",
        subcommands: [UsersAddCommand.self, UsersPasswordCommand.self, UsersRemoveCommand.self, UsersListCommand.self, UsersHoldCommand.self])
}
