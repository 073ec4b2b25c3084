import Model
import Synchronization

/// The push routing the HTTP side checks reported tuples against, shared
/// with the reload that replaces it when `[apps.*]` change.
public final class PushRoutingTable: Sendable {
    private let routing: Mutex<PushRouting>

    public init(_ routing: PushRouting) {
        self.routing = Mutex(routing)
    }

    public var current: PushRouting {
        get { routing.withLock { $0 } }
        set { routing.withLock { $0 = newValue } }
    }
}
