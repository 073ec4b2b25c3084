import ArgumentParser

struct CallsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calls", abstract: "Inspect the record of each incoming call: pushes, branches, outcome, timeline.",
        subcommands: [CallsListCommand.self, CallsShowCommand.self])
}
