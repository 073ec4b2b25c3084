import Foundation
import Logging
import Model
import Ports
import PostgresNIO

/// The binding event feed on PostgreSQL: the `binding_events` rows every
/// node's group commit appends (`PostgreSQLBindingStore.announce`), which
/// announces them as `.bindings` (`PostgreSQLStoreNotifications`).
public struct PostgreSQLBindingEventFeed: BindingEventFeed {
    private let database: PostgreSQLDatabase

    public init(database: PostgreSQLDatabase) {
        self.database = database
    }

    public var node: String { database.node }

    public func head() throws -> Int64 {
        try database.read { db in
            try db.value("SELECT seq FROM feed_heads WHERE feed = 'binding_events'", as: Int64.self) ?? 0
        }
    }

    public func events(after seq: Int64, limit: Int) throws -> BindingEvents {
        let decoder = JSONDecoder()
        return try database.read { db in
            let rows = try db.rows(
                "SELECT seq, node, kind, binding FROM binding_events WHERE seq > \(seq) ORDER BY seq LIMIT \(Int64(max(limit, 0)))")
            var events: [BindingEvent] = []
            for row in rows {
                let kindText: String = try row.column("kind", in: "binding_events")
                let json: String = try row.column("binding", in: "binding_events")
                guard let kind = BindingEvent.Kind(rawValue: kindText),
                      let binding = try? decoder.decode(Binding.self, from: Data(json.utf8)) else {
                    throw StorageError.corruptRow(table: "binding_events", detail: "an event that cannot be read")
                }
                events.append(BindingEvent(seq: try row.column("seq", in: "binding_events"),
                                           node: try row.column("node", in: "binding_events"),
                                           kind: kind, binding: binding))
            }
            // The feed keeps its latest entries: a first entry past the next
            // one asked means the ones between were pruned.
            let missed = events.first.map { $0.seq > seq + 1 } ?? false
            return BindingEvents(events: events, through: events.last?.seq ?? seq, missed: missed)
        }
    }
}
