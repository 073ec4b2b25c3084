import Ports
import PostgresNIO

/// The store's announcements on PostgreSQL: every write another node or the
/// CLI commits sends `NOTIFY sipwake_changes` with the kind of change as
/// payload (`StoreChange`'s raw value), in its transaction, so PostgreSQL
/// delivers it at COMMIT and never for a rollback (and once per kind and
/// transaction). `listen` keeps a connection of its own LISTENing.
public struct PostgreSQLStoreNotifications: StoreNotifications {
    static let channel = "sipwake_changes"
    private let database: PostgreSQLDatabase

    public init(database: PostgreSQLDatabase) {
        self.database = database
    }

    /// The statement that announces `change`, for the writer's transaction.
    static func notify(_ change: StoreChange) -> PostgresQuery {
        "SELECT pg_notify(\(channel), \(change.rawValue))"
    }

    /// Once the LISTEN is in place (commits before it are read then) every
    /// kind is reported, then each notification's kind. A payload that is
    /// no kind (a newer node's) counts as every kind. A lost connection is
    /// opened again a second later, after `failed` is told why.
    public func listen(_ changed: @escaping @Sendable (StoreChange) -> Void,
                       failed: @escaping @Sendable (any Error) async -> Void) async {
        while !Task.isCancelled {
            do {
                let connection = try await database.connections.connectForListening()
                do {
                    try await connection.listen(on: Self.channel) { notifications in
                        StoreChange.allCases.forEach(changed)
                        for try await notification in notifications {
                            if let change = StoreChange(rawValue: notification.payload) {
                                changed(change)
                            } else {
                                StoreChange.allCases.forEach(changed)
                            }
                        }
                    }
                } catch {
                    try? await connection.close()
                    throw error
                }
                try? await connection.close()
            } catch {
                if Task.isCancelled { return }
                await failed(error)
            }
            if Task.isCancelled { return }
            try? await Task.sleep(for: .seconds(1))
        }
    }
}
