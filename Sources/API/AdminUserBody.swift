import Registrar

/// The body of the users routes: `POST /admin/v1/users` (`username`,
/// `password`), `PUT /admin/v1/users/{username}/password` (`password`) and
/// `PUT /admin/v1/users/{username}/hold` (`wakeup_hold`). Every field is
/// optional here so that a missing one is refused by name, before the user
/// repository is called. The password is never logged nor echoed.
struct AdminUserBody: Decodable, Sendable {
    var username: String?
    var password: String?
    var wakeupHold: Bool?

    enum CodingKeys: String, CodingKey {
        case username, password
        case wakeupHold = "wakeup_hold"
    }

    func requiredUsername() throws -> String {
        guard let username else { throw AdminError.badRequest("missing username", field: "username") }
        return username.lowercased()
    }

    /// The password's HA1s for `username` in `realm`, after the same checks
    /// as `sipwake users add`.
    func hashes(username: String, realm: String) throws -> PasswordHashes {
        guard let password else { throw AdminError.badRequest("missing password", field: "password") }
        if let refusal = PasswordHashes.refusal(of: password) { throw AdminError.badRequest(refusal, field: "password") }
        return PasswordHashes(username: username, realm: realm, password: password)
    }

    func requiredWakeupHold() throws -> Bool {
        guard let wakeupHold else { throw AdminError.badRequest("missing wakeup_hold", field: "wakeup_hold") }
        return wakeupHold
    }
}
