/// The stores a sipwake process reads and writes, whichever database holds
/// them. Built once by whoever opens the database, then handed down.
public struct Stores: Sendable {
    public var users: any UserRepository
    public var bindings: any BindingRepository
    public var tuples: any TupleRepository
    public var callRecords: any CallRecordArchive
    /// The other nodes' binding changes, when the store is shared by
    /// several nodes; nil for a store one process owns.
    public var bindingEvents: (any BindingEventFeed)?
    /// The store's announcements of other processes' commits; nil when the
    /// readers poll.
    public var notifications: (any StoreNotifications)?

    /// True when several nodes may share the store (it has a binding event feed).
    public var isShared: Bool { bindingEvents != nil }

    public init(users: any UserRepository, bindings: any BindingRepository, tuples: any TupleRepository,
                callRecords: any CallRecordArchive, bindingEvents: (any BindingEventFeed)? = nil,
                notifications: (any StoreNotifications)? = nil) {
        self.users = users
        self.bindings = bindings
        self.tuples = tuples
        self.callRecords = callRecords
        self.bindingEvents = bindingEvents
        self.notifications = notifications
    }
}
