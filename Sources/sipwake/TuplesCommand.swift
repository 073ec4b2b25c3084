import ArgumentParser

struct TuplesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tuples", abstract: "Inspect and clean up device push tuples (AppId, DeviceToken, Selector).",
        subcommands: [TuplesListCommand.self, TuplesShowCommand.self, TuplesDeleteCommand.self, TuplesPurgeCommand.self])
}
