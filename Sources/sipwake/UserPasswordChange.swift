import Ports
import Registrar

/// What `users add` and `users password` share: open the database named by
/// the config, hash the password for the configured realm, call the store.
enum UserPasswordChange {
    static func run(
        _ options: ConfigOption, user: String, password: String,
        _ change: (any UserRepository, _ name: String, _ realm: String, PasswordHashes) throws -> String
    ) throws {
        let config = try options.load()
        let database = try DatabaseAccess.open(config)
        defer { try? database.close() }
        let realm = config.auth.effectiveRealm
        let name = user.lowercased()
        if let refusal = PasswordHashes.refusal(of: password) { throw CLIError(refusal) }
        let hashes = PasswordHashes(username: name, realm: realm, password: password)
        do {
            print(try change(database.stores.users, name, realm, hashes))
        } catch let error as StorageError {
            throw CLIError(error.description)
        }
    }
}
