import CSofiaSIP

/// The stream connections (TCP, TLS) that devices registered over, so that
/// requests to a binding can go back over the very connection its REGISTER
/// came in on: a phone behind NAT cannot be reached by a new connection.
///
/// Each entry holds a Sofia transport reference (`tport_ref`) and gives it a
/// stable number that bindings store. Closed connections are swept and their
/// references released on a later loop turn. Loop thread only.
public final class ConnectionTable {
    private var idsByTport: [OpaquePointer: UInt64] = [:]
    private var tportsByID: [UInt64: OpaquePointer] = [:]
    private var nextID: UInt64 = 1
    private let loop: SIPLoop

    public init(loop: SIPLoop) {
        self.loop = loop
    }

    deinit {
        releaseAll()
    }

    /// Drops every reference. Must run before the agent that owns the
    /// transports is destroyed.
    public func releaseAll() {
        for tport in tportsByID.values { tport_unref(tport) }
        tportsByID.removeAll()
        idsByTport.removeAll()
    }

    public var count: Int { tportsByID.count }

    /// The number of a stream connection, remembering it if new.
    public func id(for tport: OpaquePointer) -> UInt64 {
        if let id = idsByTport[tport] { return id }
        let id = nextID
        nextID += 1
        idsByTport[tport] = id
        tportsByID[id] = tport_ref(tport)
        return id
    }

    /// The live transport for a connection number, nil once it has closed.
    public func transport(for id: UInt64) -> OpaquePointer? {
        guard let tport = tportsByID[id] else { return nil }
        if tport_is_closed(tport) != 0 || tport_is_shutdown(tport) != 0 { return nil }
        return tport
    }

    /// Forgets closed connections. Returns the numbers that were dropped.
    @discardableResult
    public func sweep() -> [UInt64] {
        var dropped: [UInt64] = []
        for (id, tport) in tportsByID where tport_is_closed(tport) != 0 || tport_is_shutdown(tport) != 0 {
            dropped.append(id)
            tportsByID[id] = nil
            idsByTport[tport] = nil
            loop.deferRelease { tport_unref(tport) }
        }
        return dropped
    }
}
