import ArgumentParser
import Storage

struct UsersAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a user.")

    @OptionGroup var options: ConfigOption
    @Argument(help: "The user name: the user part of the AOR, e.g. alice for sip:alice@example.com.")
    var user: String
    @Option(help: "The SIP password.") var password: String

    func run() throws {
        let config = try options.load()
        let database = try DatabaseAccess.open(config)
        defer { try? database.close() }
        let realm = config.auth.effectiveRealm
        let name = user.lowercased()
        let hashes = try PasswordHashes(username: name, realm: realm, password: password)
        do {
            let record = try UserStore(database: database).add(
                username: name, realm: realm, ha1MD5: hashes.md5, ha1SHA256: hashes.sha256)
            print("added user \(record.username) (realm \(record.realm))")
        } catch let error as StorageError {
            throw CLIError(error.description)
        }
    }
}
