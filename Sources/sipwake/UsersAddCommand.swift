import ArgumentParser
import Ports

struct UsersAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a user.")

    @OptionGroup var options: ConfigOption
    @Argument(help: "The user name: the user part of the AOR, e.g. alice for sip:alice@example.com.")
    var user: String
    @Option(help: "The SIP password.") var password: String

    func run() throws {
        try UserPasswordChange.run(options, user: user, password: password) { store, name, realm, hashes in
            let record = try store.add(username: name, realm: realm, ha1MD5: hashes.md5, ha1SHA256: hashes.sha256)
            return "added user \(record.username) (realm \(record.realm))"
        }
    }
}
