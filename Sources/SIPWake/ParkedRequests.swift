/// The requests waiting for a user lookup, bounded: a stranger can name a
/// new user in every request, and each parked request holds its whole
/// message. Past the limits a request is not parked but handled at once,
/// as for an unknown user (a fresh challenge), so nothing grows with what
/// a source sends. Pure; used on the SIP loop.
///
/// | event | state | result |
/// |---|---|---|
/// | park, key already parked | — | `.retransmission` (drop it) |
/// | park, `total` parked or the source holds `perSource` | — | `.full` (answer now) |
/// | park, otherwise | key and source counted | `.parked` |
/// | release | key and source uncounted | — |
struct ParkedRequests {
    enum Outcome: Equatable {
        case parked
        case retransmission
        case full
    }

    let total: Int
    let perSource: Int
    private var keys: [String: String] = [:]
    private var bySource: [String: Int] = [:]

    init(total: Int = 1000, perSource: Int = 16) {
        self.total = total
        self.perSource = perSource
    }

    var count: Int { keys.count }

    /// `key` names the request (Call-ID, CSeq, method, source); `source` its address.
    mutating func park(_ key: String, source: String) -> Outcome {
        if keys[key] != nil { return .retransmission }
        guard keys.count < total, bySource[source, default: 0] < perSource else { return .full }
        keys[key] = source
        bySource[source, default: 0] += 1
        return .parked
    }

    mutating func release(_ key: String) {
        guard let source = keys.removeValue(forKey: key) else { return }
        let left = bySource[source, default: 1] - 1
        bySource[source] = left > 0 ? left : nil
    }

    mutating func removeAll() {
        keys.removeAll()
        bySource.removeAll()
    }
}
