import Foundation

/// When to send RFC 8599 binding-refresh pushes (§5, `+sip.pnsreg`): a phone
/// whose app sleeps cannot refresh its registration by itself, so before the
/// binding expires sipwake pushes it, and the woken app re-registers. One
/// missed push must not leave a phone unreachable until it is next opened,
/// so an unanswered push is sent again.
///
/// Pure: events in, actions out, the time given by the caller.
///
/// For a binding registered at `r` until `e`, with `lead = min(before,
/// (e - r) / 2)` (a short registration is refreshed halfway through) and
/// `gap = lead / (retries + 1)`, the pushes are due at `e - lead`,
/// `e - lead + gap`, … (`1 + retries` of them), each only while the phone
/// has not re-registered.
///
/// | event | condition | actions | next |
/// |---|---|---|---|
/// | registered (new device or refresh) | `before` > 0 | none | due at `e - lead`, nothing sent, PRID-URR kept (a new one for a new device) |
/// | registered | `before` = 0, or the device has no token for a refresh push | none | known (its PRID-URR), never due |
/// | tick | due, pushes left, binding not expired | `push(attempt n)` | due at the next retry, or at `e` after the last |
/// | tick | `e` passed and pushes were sent | `unanswered` | forgotten |
/// | tick | `e` passed, nothing sent | `expired` | forgotten |
/// | lapsed (the registrar expired it) | pushes were sent | `unanswered` | forgotten |
/// | lapsed | nothing sent | `expired` | forgotten |
/// | removed (unregistered, evicted, or token gone) | — | none | forgotten |
/// | REGISTER with `pn-purr` | a device of the same user has that PRID-URR | (the caller is told which device) | as registered |
public struct BindingRefreshSchedule: Sendable {
    /// Seconds before expiry of the first push; 0 = no refresh pushes.
    public let before: TimeInterval
    public let retries: Int

    struct Entry: Sendable, Equatable {
        var purr: String
        var expiresAt: Date
        var firstAt: Date
        var gap: TimeInterval
        var sent: Int
        var dueAt: Date?
    }

    private(set) var entries: [BindingRefreshKey: Entry] = [:]
    /// Each PRID-URR's device.
    private var byPURR: [String: BindingRefreshKey] = [:]

    public init(before: TimeInterval, retries: Int) {
        self.before = max(0, before)
        self.retries = max(0, retries)
    }

    /// How many devices are known.
    public var count: Int { entries.count }

    /// The PRID-URR of `key`, when it is known.
    public func purr(of key: BindingRefreshKey) -> String? { entries[key]?.purr }

    /// The device of `aor` whose PRID-URR is `purr`: the one a REGISTER
    /// with `pn-purr` answers (§4.1.2). Another user's PRID-URR names nothing.
    public func device(withPURR purr: String, of aor: String) -> BindingRefreshKey? {
        guard let key = byPURR[purr], key.aor == aor else { return nil }
        return key
    }

    /// When the next push to `key` is due; nil when none is.
    public func dueAt(_ key: BindingRefreshKey) -> Date? { entries[key]?.dueAt }

    /// A push-capable binding of `key` was registered (or refreshed) at `now`
    /// until `expiresAt`. Returns its PRID-URR: the known one, else
    /// `newPURR()`'s. With `pushes` false the device is known (its PRID-URR)
    /// but gets no refresh push: it has no token for one.
    @discardableResult
    public mutating func registered(_ key: BindingRefreshKey, expiresAt: Date, now: Date, pushes: Bool = true,
                                    newPURR: () -> String) -> String {
        let purr = entries[key]?.purr ?? newPURR()
        let lifetime = max(0, expiresAt.timeIntervalSince(now))
        let lead = min(before, lifetime / 2)
        let firstAt = expiresAt.addingTimeInterval(-lead)
        entries[key] = Entry(purr: purr, expiresAt: expiresAt, firstAt: firstAt, gap: lead / Double(retries + 1),
                             sent: 0, dueAt: pushes && before > 0 && lead > 0 ? firstAt : nil)
        byPURR[purr] = key
        return purr
    }

    /// Seconds before expiry of the first refresh push of a registration
    /// from `now` to `expiresAt` (the `+sip.pnsreg` it is told): `before`,
    /// or half the registration when that is shorter.
    public func lead(expiresAt: Date, now: Date) -> TimeInterval {
        min(before, max(0, expiresAt.timeIntervalSince(now)) / 2)
    }

    /// The device is no push target any more (it unregistered, was evicted,
    /// or its token is gone).
    public mutating func removed(_ key: BindingRefreshKey) {
        forget(key)
    }

    /// The registrar expired the device's binding.
    public mutating func lapsed(_ key: BindingRefreshKey) -> BindingRefreshAction? {
        guard let entry = forget(key) else { return nil }
        return entry.sent > 0 ? .unanswered(key, pushes: entry.sent) : .expired(key)
    }

    @discardableResult
    private mutating func forget(_ key: BindingRefreshKey) -> Entry? {
        guard let entry = entries.removeValue(forKey: key) else { return nil }
        byPURR[entry.purr] = nil
        return entry
    }

    /// The pushes due at `now`, and the devices whose pushes went unanswered.
    public mutating func tick(now: Date) -> [BindingRefreshAction] {
        var actions: [BindingRefreshAction] = []
        for (key, entry) in entries {
            if now >= entry.expiresAt {
                forget(key)
                actions.append(entry.sent > 0 ? .unanswered(key, pushes: entry.sent) : .expired(key))
                continue
            }
            guard let due = entry.dueAt, now >= due else { continue }
            var next = entry
            next.sent += 1
            actions.append(.push(key, purr: entry.purr, attempt: next.sent))
            next.dueAt = next.sent <= retries ? entry.firstAt.addingTimeInterval(entry.gap * Double(next.sent)) : nil
            entries[key] = next
        }
        return actions.sorted { Self.order($0) < Self.order($1) }
    }

    /// A stable order for the actions of one tick (dictionary order is not).
    private static func order(_ action: BindingRefreshAction) -> String {
        switch action {
        case .push(let key, _, _): return "p \(key.aor) \(key.selector)"
        case .unanswered(let key, _): return "u \(key.aor) \(key.selector)"
        case .expired(let key): return "x \(key.aor) \(key.selector)"
        }
    }
}
