import ArgumentParser
import Ports

struct TuplesDeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Delete one tuple by ID, or all of a user's tuples with --user.")

    @OptionGroup var options: ConfigOption
    @Argument(help: "The tuple's ID, as shown by 'tuples list'.") var id: String?
    @Option(help: "Delete every tuple of this user instead.") var user: String?

    func run() throws {
        if id != nil, user != nil { throw CLIError("give either a tuple ID or --user USER, not both") }
        if id == nil, user == nil { throw CLIError("give a tuple ID or --user USER") }
        let tupleID = try id.map(TupleIDArgument.parse)
        let config = try options.load()
        let database = try DatabaseAccess.open(config)
        defer { try? database.close() }
        let store = database.stores.tuples
        if let tupleID {
            guard try CLIStorage.run({ try store.delete(id: tupleID) }) else {
                throw CLIError(StorageError.tupleNotFound(id: tupleID).description)
            }
            print("deleted tuple \(tupleID)")
        } else if let user {
            let name = user.lowercased()
            let deleted = try CLIStorage.run { () -> Int in
                guard try database.stores.users.find(username: name) != nil else {
                    throw StorageError.userNotFound(name)
                }
                return try store.deleteAll(username: name)
            }
            print("deleted \(TupleOutput.plural(deleted)) of user \(name)")
        }
    }
}
