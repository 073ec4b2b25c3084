import Registrar

/// The two HA1s stored for a user: MD5 (RFC 2617) and SHA-256 (RFC 8760).
struct PasswordHashes {
    let md5: String
    let sha256: String

    init(username: String, realm: String, password: String) throws {
        guard !password.isEmpty else { throw CLIError("the password must not be empty") }
        guard password.count <= 256 else { throw CLIError("the password is longer than 256 characters") }
        md5 = DigestHash.ha1(username: username, realm: realm, password: password, algorithm: .md5)
        sha256 = DigestHash.ha1(username: username, realm: realm, password: password, algorithm: .sha256)
    }
}
