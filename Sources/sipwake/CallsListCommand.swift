import ArgumentParser
import Model
import Ports
import SIPWake

struct CallsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List call records, newest first.")

    @OptionGroup var options: ConfigOption
    @Option(help: "Only calls to this user.") var user: String?
    @Option(help: "Only calls that ended so: \(CallOutcome.allCases.map(\.rawValue).joined(separator: ", ")).")
    var outcome: String?
    @Option(help: "At most this many calls.") var limit = 50
    @Option(help: "Skip this many calls first (paging).") var offset = 0
    @Flag(help: "JSON instead of a table (every record in full).") var json = false

    func run() throws {
        try ListPage.validate(limit: limit, offset: offset)
        let filter = try outcome.map(CallsOutcomeArgument.parse)
        let config = try options.load()
        let database = try DatabaseAccess.open(config)
        defer { try? database.close() }
        let store = database.stores.callRecords
        let (calls, total) = try CLIStorage.run {
            (try store.list(callee: user, outcome: filter, limit: limit, offset: offset),
             try store.count(callee: user, outcome: filter))
        }
        if total == 0 {
            let calls = (outcome.map { "\($0) calls" } ?? "calls") + (user.map { " to \($0)" } ?? "")
            ListPage.noteEmpty(calls, options: options, config: config)
        }
        if json {
            try JSONOutput.print(calls.map(CallRecordJSON.init))
            return
        }
        ListPage.print(headers: CallsOutput.listHeaders, rows: calls.map(CallsOutput.listRow), total: total,
                       offset: offset, noun: "calls", counted: CallsOutput.plural)
    }
}
