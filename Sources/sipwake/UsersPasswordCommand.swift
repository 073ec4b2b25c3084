import ArgumentParser
import Storage

struct UsersPasswordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "password", abstract: "Change a user's password.")

    @OptionGroup var options: ConfigOption
    @Argument var user: String
    @Option(help: "The new SIP password.") var password: String

    func run() throws {
        let config = try options.load()
        let database = try DatabaseAccess.open(config)
        defer { try? database.close() }
        let realm = config.auth.effectiveRealm
        let name = user.lowercased()
        let hashes = try PasswordHashes(username: name, realm: realm, password: password)
        do {
            try UserStore(database: database).setPassword(
                username: name, realm: realm, ha1MD5: hashes.md5, ha1SHA256: hashes.sha256)
            print("password changed for \(name)")
        } catch let error as StorageError {
            throw CLIError(error.description)
        }
    }
}
