import ArgumentParser
import Ports

struct UsersRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove a user and its saved bindings.")

    @OptionGroup var options: ConfigOption
    @Argument var user: String

    func run() throws {
        let config = try options.load()
        let database = try DatabaseAccess.open(config)
        defer { try? database.close() }
        do {
            try database.stores.users.remove(username: user.lowercased())
            print("removed user \(user.lowercased())")
        } catch let error as StorageError {
            throw CLIError(error.description)
        }
    }
}
