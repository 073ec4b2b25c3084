import Foundation

/// A user as programs read it: `sipwake users list --json` and
/// `GET /admin/v1/users` print the same object. Never an HA1.
public struct UserJSON: Encodable, Sendable {
    let username: String
    let realm: String
    let wakeupHold: Bool
    let createdAt: String

    public init(_ u: UserRecord) {
        username = u.username
        realm = u.realm
        wakeupHold = u.wakeupHold
        createdAt = ISO8601Time.seconds(u.createdAt)
    }
}
