/// One binding change as another sipwake node sharing the store committed
/// it: what the node that holds a pending call for that user needs to fork
/// to a device that registered elsewhere, and to stop forking to one that
/// left. Written in the same transaction as the change itself.
public struct BindingEvent: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable {
        /// Registered or refreshed: `binding` is what is stored now.
        case saved
        /// Gone (unregistered, expired, evicted, deleted): `binding` is what was stored.
        case removed
    }

    /// The event's place in the feed.
    public var seq: Int64
    /// The node that committed it (`BindingEventFeed`'s node id).
    public var node: String
    public var kind: Kind
    public var binding: Binding

    public init(seq: Int64, node: String, kind: Kind, binding: Binding) {
        self.seq = seq
        self.node = node
        self.kind = kind
        self.binding = binding
    }
}
