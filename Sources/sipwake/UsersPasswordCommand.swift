import ArgumentParser
import Ports

struct UsersPasswordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "password", abstract: "Change a user's password.")

    @OptionGroup var options: ConfigOption
    @Argument var user: String
    @Option(help: "The new SIP password.") var password: String

    func run() throws {
        try UserPasswordChange.run(options, user: user, password: password) { store, name, realm, hashes in
            try store.setPassword(username: name, realm: realm, ha1MD5: hashes.md5, ha1SHA256: hashes.sha256)
            return "password changed for \(name)"
        }
    }
}
