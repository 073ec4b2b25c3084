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
        try ListPage.validate(limit: limit, offset: offset)
        let config = try options.load()
        let database = try DatabaseAccess.open(config)
        defer { try? database.close() }
        let store = database.stores.tuples
        let (tuples, total) = try CLIStorage.run {
            (try store.list(username: user, limit: limit, offset: offset), try store.count(username: user))
        }
        if total == 0 { ListPage.noteEmpty(user.map { "tuples of \($0)" } ?? "tuples", options: options, config: config) }
        if json {
            try JSONOutput.print(tuples.map(DeviceTupleJSON.init))
            return
        }
        ListPage.print(headers: TupleOutput.headers, rows: tuples.map(TupleOutput.tableRow), total: total,
                       offset: offset, noun: "tuples", counted: TupleOutput.plural)
    }
}
