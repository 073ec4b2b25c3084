import Model

/// The SIP users: who may register and call, with their HA1 digests (never a
/// password). Written by the operator (`sipwake users`), read by the
/// registrar and the reporter endpoints. Usernames are stored lower-cased and
/// looked up case-insensitively.
public protocol UserRepository: Sendable {
    /// Adds a user with the wake-up hold on.
    /// - Throws: `invalidUsername`, `invalidRealm`, `invalidHA1`, `userExists`; nothing is written then.
    func add(username: String, realm: String, ha1MD5: String, ha1SHA256: String) throws -> UserRecord
    /// Replaces a user's realm and HA1 values (a password change).
    /// - Throws: `userNotFound`, or a validation error; nothing is written then.
    func setPassword(username: String, realm: String, ha1MD5: String, ha1SHA256: String) throws
    /// Turns the wake-up hold (wait for the push before forking) on or off.
    /// - Throws: `userNotFound`.
    func setWakeupHold(username: String, _ wakeupHold: Bool) throws
    /// Removes a user and that user's bindings and device tuples.
    /// - Throws: `userNotFound`; nothing is written then.
    func remove(username: String) throws
    /// The user, or nil (an invalid username is simply not found).
    func find(username: String) throws -> UserRecord?
    /// Every user, ordered by username.
    func list() throws -> [UserRecord]
    /// A number that changes whenever any process changes a user, so the
    /// server's credential cache knows when to reload.
    func usersVersion() throws -> Int64
}
