import Model

/// A user as `sipwake users list --json` prints it (never an HA1).
struct UserOutputJSON: Encodable {
    let username: String
    let realm: String
    let wakeupHold: Bool
    let createdAt: String

    init(_ u: UserRecord) {
        username = u.username
        realm = u.realm
        wakeupHold = u.wakeupHold
        createdAt = JSONOutput.timestamp(u.createdAt)
    }
}
