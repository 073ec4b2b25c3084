import CSofiaSIP

/// The stream connections (TCP, TLS) that requests came in on, so that
/// requests to a binding can go back over the very connection its REGISTER
/// came in on: a phone behind NAT cannot be reached by a new connection.
///
/// Each entry holds a Sofia transport reference (`tport_ref`) and gives it a
/// stable number that bindings store. While a binding uses a connection its
/// reference is kept, which also keeps Sofia's idle timer from closing it.
/// `sweep` lets go of the rest, and closes connections Sofia has stopped
/// reading because they sent garbage (lost framing). Loop thread only.
public final class ConnectionTable {
    private struct Entry {
        var tport: OpaquePointer
        var lastSeen: UInt64
    }

    private var idsByTport: [OpaquePointer: UInt64] = [:]
    private var entries: [UInt64: Entry] = [:]
    private var nextID: UInt64 = 1
    private var sweeps: UInt64 = 0
    private let loop: SIPLoop

    public init(loop: SIPLoop) {
        self.loop = loop
    }

    deinit {
        releaseAll()
    }

    public var count: Int { entries.count }

    /// Drops every reference. Must run before the agent that owns the
    /// transports is destroyed.
    public func releaseAll() {
        for entry in entries.values { tport_unref(entry.tport) }
        entries.removeAll()
        idsByTport.removeAll()
    }

    /// The number of a stream connection, remembering it if new.
    public func id(for tport: OpaquePointer) -> UInt64 {
        if let id = idsByTport[tport] {
            entries[id]?.lastSeen = sweeps
            return id
        }
        let id = nextID
        nextID += 1
        idsByTport[tport] = id
        entries[id] = Entry(tport: tport_ref(tport), lastSeen: sweeps)
        return id
    }

    /// The live connection for a connection number, nil once it has closed.
    public func connection(for id: UInt64) -> SIPConnection? {
        guard let entry = entries[id] else { return nil }
        if tport_is_closed(entry.tport) != 0 || tport_is_shutdown(entry.tport) != 0 { return nil }
        return SIPConnection(tport: entry.tport)
    }

    /// Call about once a second. Closes connections that lost framing,
    /// forgets closed ones, and lets go of connections no binding uses once
    /// they have been quiet for `graceSweeps` calls (Sofia's idle timer then
    /// decides when to close them). Returns the numbers that were dropped.
    @discardableResult
    public func sweep(inUse: (UInt64) -> Bool, graceSweeps: UInt64 = 5) -> [UInt64] {
        sweeps += 1
        var dropped: [UInt64] = []
        for (id, entry) in entries {
            let tport = entry.tport
            let closed = tport_is_closed(tport) != 0
            let stalled = !closed && tport_is_shutdown(tport) != 0
            let unused = !inUse(id) && sweeps - entry.lastSeen >= graceSweeps
            guard closed || stalled || unused else { continue }
            if stalled {
                // Sofia stops reading a stream after a message it cannot
                // frame; nothing more can come from it, so close it now.
                tport_shutdown(tport, 2)
            }
            dropped.append(id)
            entries[id] = nil
            idsByTport[tport] = nil
            loop.deferRelease { tport_unref(tport) }
        }
        return dropped
    }
}
