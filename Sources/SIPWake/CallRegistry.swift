/// The calls the proxy is handling, by their record id, and the ids of each
/// callee's calls, so that a device registering during a call finds the
/// calls it should join (late forking). Loop thread only.
struct CallRegistry<Call> {
    private var calls: [String: Call] = [:]
    private var keysByAOR: [String: Set<String>] = [:]

    var count: Int { calls.count }
    var isEmpty: Bool { calls.isEmpty }
    /// The ids of every call, in no particular order.
    var keys: [String] { Array(calls.keys) }

    subscript(key: String) -> Call? { calls[key] }

    /// Every call, in no particular order.
    var all: [Call] { Array(calls.values) }

    mutating func add(_ call: Call, key: String, aor: String) {
        calls[key] = call
        keysByAOR[aor, default: []].insert(key)
    }

    /// Forgets the call `key` of `aor`; returns it, nil when it was not there.
    mutating func remove(_ key: String, aor: String) -> Call? {
        guard let call = calls.removeValue(forKey: key) else { return nil }
        keysByAOR[aor]?.remove(key)
        if keysByAOR[aor]?.isEmpty == true { keysByAOR[aor] = nil }
        return call
    }

    /// The ids of the calls to `aor`.
    func keys(ofAOR aor: String) -> Set<String> {
        keysByAOR[aor] ?? []
    }

    /// How many callees have calls (for tests and metrics).
    var aorCount: Int { keysByAOR.count }
}
