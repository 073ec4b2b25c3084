import ArgumentParser
import Model
import Ports

struct CallsShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show the whole story of one call: pushes, branches, outcome and timeline.")

    @OptionGroup var options: ConfigOption
    @Argument(help: "The record id, the pairing id (the push Id, X-Push-ID) or the Call-ID of the INVITE.")
    var id: String
    @Flag(help: "JSON instead of text (the whole record).") var json = false

    func run() throws {
        let config = try options.load()
        let database = try DatabaseAccess.open(config)
        defer { try? database.close() }
        guard let record = try CLIStorage.run({ try database.stores.callRecords.find(id) }) else {
            throw CLIError("no call with record id, pairing id or Call-ID '\(id)'")
        }
        if json {
            try JSONOutput.print(CallRecordJSON(record))
            return
        }
        print(CallsOutput.story(record))
    }
}
