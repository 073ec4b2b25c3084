import Model
import ArgumentParser
import Ports
import SIPWake

struct TuplesListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List device tuples, ordered by id.")

    @OptionGroup var options: ConfigOption
    @Option(help: "Only this user's tuples.") var user: String?
    @Option(help: "At most this many tuples.") var limit = 100
    @Option(help: "Skip this many tuples first (paging).") var offset = 0
    @Flag(help: "JSON instead of a table (tokens in full).") var json = false

    func run() throws {
        guard limit >= 0 else { throw CLIError("invalid --limit \(limit): must not be negative") }
        guard offset >= 0 else { throw CLIError("invalid --offset \(offset): must not be negative") }
        let config = try options.load()
        let database = try DatabaseAccess.open(config)
        defer { try? database.close() }
        let store = database.stores.tuples
        let (tuples, total) = try CLIStorage.run {
            (try store.list(username: user, limit: limit, offset: offset), try store.count(username: user))
        }
        if json {
            try JSONOutput.print(tuples.map(DeviceTupleJSON.init))
            return
        }
        var table = TextTable(headers: TupleOutput.headers)
        for t in tuples { table.append(TupleOutput.tableRow(t)) }
        print(table.render())
        if tuples.count == total {
            print(TupleOutput.plural(total))
        } else if tuples.isEmpty {
            print("no tuples at offset \(offset) of \(TupleOutput.plural(total))")
        } else {
            print("\(offset + 1)-\(offset + tuples.count) of \(TupleOutput.plural(total)) (--offset, --limit for more)")
        }
    }
}
