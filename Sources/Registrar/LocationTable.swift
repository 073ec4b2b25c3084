import Foundation
import HeapModule
import Model

/// The in-memory location service (RFC 3261 §10.3): AOR → bindings.
///
/// A value type owned by the one actor that runs the registrar; it is not
/// shared, so it carries no locks. Expiry times are kept in a min-heap, so
/// `expire(now:)` costs O(1) when nothing is due and O(k log n) for k due
/// bindings, whatever the size of the table.
public struct LocationTable {
    private var bindingsByAOR: [String: [BindingKey: Binding]] = [:]
    private var expiries = Heap<BindingExpiry>()
    public private(set) var count: Int = 0

    public init() {}

    /// Loads bindings read from the database at start-up. Bindings that have
    /// already expired are kept until the first `expire(now:)`, which removes
    /// them and reports them as `.removed(_, .expired)`, so the store deletes
    /// them too. Use `load(_:now:)` to drop them on the way in instead.
    /// A later binding with the key of an earlier one replaces it.
    public mutating func load(_ bindings: [Binding]) {
        for binding in bindings {
            insert(binding)
        }
    }

    /// Loads bindings read from the database at start-up, dropping those that
    /// have expired at `now` (`expiresAt <= now`); they are not reported.
    public mutating func load(_ bindings: [Binding], now: Date) {
        load(bindings.filter { $0.expiresAt > now })
    }

    /// The AOR's bindings that have not expired at `now`, in the order of the
    /// 200 OK's Contact list (q descending, then most recently updated).
    public func bindings(of aor: String, now: Date) -> [Binding] {
        guard let byKey = bindingsByAOR[aor] else { return [] }
        return RegistrarRules.sortedForResponse(byKey.values.filter { $0.expiresAt > now })
    }

    /// Decides a REGISTER with `RegistrarRules.process` on the AOR's live
    /// bindings and applies the accepted changes.
    ///
    /// When accepted, `changes` starts with `.removed(_, .expired)` for any
    /// binding of the AOR that had expired but not yet been swept: the rules
    /// treated it as absent, so a contact with its key was `.added`, and the
    /// store must hear about the removal before the addition.
    public mutating func register(_ request: RegisterRequest, policy: RegistrarPolicy, now: Date) -> RegisterOutcome {
        let all = bindingsByAOR[request.aor].map { Array($0.values) } ?? []
        let live = all.filter { $0.expiresAt > now }
        let outcome = RegistrarRules.process(request, current: live, policy: policy, now: now)
        guard case .accepted(let decided, let bindings) = outcome else { return outcome }
        let lapsed = all.filter { $0.expiresAt <= now }
            .sorted { $0.expiresAt < $1.expiresAt }
            .map { BindingChange.removed($0, reason: .expired) }
        let changes = lapsed + decided
        apply(changes)
        return .accepted(changes: changes, bindings: bindings)
    }

    /// Applies binding changes another node committed to the shared store
    /// and returns what changed here. The newer write wins, by `updatedAt`:
    /// an event older than the binding held (this node refreshed it since)
    /// changes nothing, and a removal removes only a binding no newer than it.
    public mutating func applyRemote(_ events: [BindingEvent]) -> [BindingChange] {
        var changes: [BindingChange] = []
        for event in events {
            let held = bindingsByAOR[event.binding.aor]?[event.binding.key]
            let change: BindingChange?
            switch event.kind {
            case .saved:
                if let held {
                    change = held.updatedAt < event.binding.updatedAt ? .refreshed(old: held, new: event.binding) : nil
                } else {
                    change = .added(event.binding)
                }
            case .removed:
                change = held.flatMap { $0.updatedAt <= event.binding.updatedAt ? .removed($0, reason: .unregistered) : nil }
            }
            if let change {
                apply([change])
                changes.append(change)
            }
        }
        return changes
    }

    /// Applies changes decided elsewhere. `register` and `expire` apply their
    /// own changes; do not apply those twice. A removal removes whatever
    /// binding the AOR holds under that key.
    public mutating func apply(_ changes: [BindingChange]) {
        for change in changes {
            switch change {
            case .added(let binding):
                insert(binding)
            case .refreshed(let old, let new):
                if old.aor != new.aor || old.key != new.key {
                    remove(aor: old.aor, key: old.key)
                }
                insert(new)
            case .removed(let binding, _):
                remove(aor: binding.aor, key: binding.key)
            }
        }
    }

    /// Removes every binding whose `expiresAt <= now` (RFC 3261 §10.2.1:
    /// a binding lapses when its interval runs out without a refresh) and
    /// returns them as `.removed(_, .expired)`, earliest first.
    public mutating func expire(now: Date) -> [BindingChange] {
        var changes: [BindingChange] = []
        while let next = expiries.min, next.expiresAt <= now {
            _ = expiries.popMin()
            // A stale entry: the binding was refreshed, replaced or removed since.
            guard let binding = bindingsByAOR[next.aor]?[next.key], binding.expiresAt == next.expiresAt else {
                continue
            }
            remove(aor: next.aor, key: next.key)
            changes.append(.removed(binding, reason: .expired))
        }
        compactExpiriesIfNeeded()
        return changes
    }

    /// Every binding held, expired or not, ordered by AOR then Contact URI.
    public func allBindings() -> [Binding] {
        bindingsByAOR.values.flatMap { $0.values }.sorted { a, b in
            if a.aor != b.aor { return a.aor < b.aor }
            if a.contact != b.contact { return a.contact < b.contact }
            return (a.instanceID ?? "") < (b.instanceID ?? "")
        }
    }

    /// Entries in the expiry index, live and stale; it stays within a constant
    /// factor of `count`.
    var expiryIndexCount: Int { expiries.count }

    private mutating func insert(_ binding: Binding) {
        let key = binding.key
        let previous = bindingsByAOR[binding.aor, default: [:]].updateValue(binding, forKey: key)
        if previous == nil { count += 1 }
        if previous?.expiresAt != binding.expiresAt {
            expiries.insert(BindingExpiry(expiresAt: binding.expiresAt, aor: binding.aor, key: key))
        }
        compactExpiriesIfNeeded()
    }

    private mutating func remove(aor: String, key: BindingKey) {
        guard bindingsByAOR[aor]?.removeValue(forKey: key) != nil else { return }
        count -= 1
        if bindingsByAOR[aor]?.isEmpty == true {
            bindingsByAOR[aor] = nil
        }
    }

    /// Refreshes leave stale heap entries behind; rebuilding from the live
    /// bindings when they outnumber the live ones keeps memory proportional to
    /// the table, at an amortised O(1) per refresh.
    private mutating func compactExpiriesIfNeeded() {
        guard expiries.count > 2 * count + 1024 else { return }
        var entries: [BindingExpiry] = []
        entries.reserveCapacity(count)
        for (aor, byKey) in bindingsByAOR {
            for (key, binding) in byKey {
                entries.append(BindingExpiry(expiresAt: binding.expiresAt, aor: aor, key: key))
            }
        }
        expiries = Heap(entries)
    }
}
