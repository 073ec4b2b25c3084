import PostgresNIO

/// What `PostgreSQLConnections` guards with its lock.
struct PoolState {
    /// Connections waiting to be lent again.
    var idle: [PostgresConnection] = []
    /// Connections lent out now; `close()` waits for them.
    var lent = 0
    /// The id the next new connection gets (for the driver's logs).
    var nextID = 0
    var closed = false
}
