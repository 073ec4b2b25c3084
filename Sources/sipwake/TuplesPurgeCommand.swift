import ArgumentParser
import Foundation
import Ports

struct TuplesPurgeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "purge", abstract: "Delete tuples no app has reported for a while (uninstalled apps never say so).")

    @OptionGroup var options: ConfigOption
    @Option(name: .customLong("not-seen-for"), help: "Age of the last report, e.g. 30d, 12h, 90m, 3600s.")
    var notSeenFor: String

    func run() throws {
        let age = try DurationArgument.seconds(notSeenFor, option: "--not-seen-for")
        let config = try options.load()
        let database = try DatabaseAccess.open(config)
        defer { try? database.close() }
        let cutoff = Date().addingTimeInterval(-age)
        let purged = try CLIStorage.run { try database.stores.tuples.purge(notSeenSince: cutoff) }
        print("purged \(TupleOutput.plural(purged)) not seen since \(JSONOutput.timestamp(cutoff))")
    }
}
