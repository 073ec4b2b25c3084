import ArgumentParser
import Foundation

struct RegistrationsDeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete one binding by AOR and Contact URI, or all of a user's bindings with --user.",
        discussion: """
            A running server drops the deleted bindings within a fraction of a second: calls no longer \
            fork to them. A device that registers again is bound again.
            """)

    @OptionGroup var options: ConfigOption
    @Argument(help: "The binding's AOR (the user), as shown by 'registrations list'.") var aor: String?
    @Argument(help: "The binding's Contact URI, as shown by 'registrations list'.") var contact: String?
    @Option(help: "Delete every binding of this user instead.") var user: String?

    func run() throws {
        if aor != nil, user != nil { throw CLIError("give either an AOR and a Contact URI or --user USER, not both") }
        if aor == nil, user == nil { throw CLIError("give an AOR and a Contact URI, or --user USER") }
        if aor != nil, contact == nil { throw CLIError("give the binding's Contact URI after its AOR") }
        if let contact, contact.trimmingCharacters(in: .whitespaces).isEmpty {
            throw CLIError("the Contact URI must not be empty")
        }
        let config = try options.load()
        let database = try DatabaseAccess.open(config)
        defer { try? database.close() }
        let store = database.stores.bindings
        if let aor, let contact {
            let name = aor.lowercased()
            guard try CLIStorage.run({ try store.delete(aor: name, contact: contact) }) else {
                throw CLIError("no binding of \(name) with contact \(contact)")
            }
            print("deleted binding \(contact) of \(name)")
        } else if let user {
            let name = user.lowercased()
            let deleted = try CLIStorage.run { try store.deleteAll(aor: name) }
            print("deleted \(deleted) binding\(deleted == 1 ? "" : "s") of user \(name)")
        }
    }
}
