import Model
import Ports

/// Reads users from SQLite off the SIP loop. An actor on the default executor:
/// the SIP actor awaits it, so disk reads happen on the cooperative pool and
/// never on the loop thread.
actor UserDirectory {
    private let store: any UserRepository

    init(store: any UserRepository) {
        self.store = store
    }

    func find(_ username: String) -> UserRecord? {
        try? store.find(username: username.lowercased())
    }

    /// Every user and the version they were read at, when the version differs from `known`.
    func snapshot(ifChangedFrom known: Int64) throws -> (records: [UserRecord], version: Int64)? {
        let version = try store.usersVersion()
        guard version != known else { return nil }
        return (try store.list(), version)
    }
}
