import SIPAttackSupport

/// The open TCP or TLS connections of one transport, by the fuzzer's
/// connection number; the least recently used is closed beyond `limit`.
final class StreamPool {
    private var streams: [Int: ByteStream] = [:]
    private var order: [Int] = []
    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    func stream(_ id: Int) -> ByteStream? {
        guard let stream = streams[id] else { return nil }
        order.removeAll { $0 == id }
        order.append(id)
        return stream
    }

    func add(_ id: Int, _ stream: ByteStream) {
        streams[id] = stream
        order.removeAll { $0 == id }
        order.append(id)
        while order.count > limit {
            streams[order.removeFirst()] = nil
        }
    }

    func remove(_ id: Int) {
        streams[id] = nil
        order.removeAll { $0 == id }
    }

    /// Reads what every connection has (without waiting); closed ones leave.
    func drain(into counts: inout TransportCounts) {
        for id in order {
            guard let stream = streams[id] else { continue }
            let drained = stream.drain(timeout: 0)
            counts.bytesReceived += drained.bytes.count
            counts.responses += ResponseCounter.count(drained.bytes)
            if drained.closed {
                counts.closedByServer += 1
                remove(id)
            }
        }
    }
}
