import Ports

extension PostgreSQLDatabase {
    /// The stores of this database, for the code that names only the ports.
    public var stores: Stores {
        Stores(users: PostgreSQLUserStore(database: self), bindings: PostgreSQLBindingStore(database: self),
               tuples: PostgreSQLTupleStore(database: self), callRecords: PostgreSQLCallRecordStore(database: self),
               bindingEvents: PostgreSQLBindingEventFeed(database: self),
               notifications: PostgreSQLStoreNotifications(database: self))
    }
}
