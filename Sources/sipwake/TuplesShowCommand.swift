import Model
import ArgumentParser
import Ports
import SIPWake

struct TuplesShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show one device tuple, tokens in full.")

    @OptionGroup var options: ConfigOption
    @Argument(help: "The tuple's ID, as shown by 'tuples list'.") var id: String
    @Flag(help: "JSON instead of text.") var json = false

    func run() throws {
        let tupleID = try TupleIDArgument.parse(id)
        let config = try options.load()
        let database = try DatabaseAccess.open(config)
        defer { try? database.close() }
        guard let t = try CLIStorage.run({ try database.stores.tuples.get(id: tupleID) }) else {
            throw CLIError(StorageError.tupleNotFound(id: tupleID).description)
        }
        if json {
            try JSONOutput.print(DeviceTupleJSON(t))
            return
        }
        var table = TextTable(headers: ["FIELD", "VALUE"])
        let fields: [(String, String)] = [
            ("id", String(t.id)), ("user", t.username), ("selector", t.selector),
            ("platform", t.platform?.rawValue ?? "-"), ("provider", t.provider),
            ("app id (calls)", t.appIDCalls ?? "-"), ("token (calls)", t.tokenCalls ?? "-"),
            ("app id (other)", t.appIDOther ?? "-"), ("token (other)", t.tokenOther ?? "-"),
            ("created", JSONOutput.timestamp(t.createdAt)), ("last seen", JSONOutput.timestamp(t.lastSeenAt)),
            ("last push", TupleOutput.push(t)),
        ]
        for (name, value) in fields { table.append([name, value]) }
        print(table.render())
    }
}
