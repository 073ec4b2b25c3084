import Foundation
import Model

/// The registrar's decision procedure, RFC 3261 §10.3 steps 5-8, with the
/// RFC 5626 instance matching and RFC 3327 Path recording. Pure: the AOR's
/// bindings and the time come in, the decision goes out.
public enum RegistrarRules {
    /// Decides a REGISTER against the AOR's current bindings.
    ///
    /// Bindings in `current` that belong to another AOR or have already
    /// expired at `now` are ignored: they are not bindings of this AOR any
    /// more, and removing expired ones is the expiry sweep's job.
    ///
    /// The request is atomic (RFC 3261 §10.3 step 7: "the update MUST be
    /// aborted and the request fails"): when any contact is rejected, no
    /// binding changes.
    ///
    /// - A request without Contact and without `*` is a query (§10.3 step 6):
    ///   accepted, no changes, the current bindings listed.
    /// - `Contact: *` (§10.3 step 6) must be alone and come with `Expires: 0`,
    ///   otherwise 400. It removes every binding of the AOR, unless one of
    ///   them has the same Call-ID and a CSeq not lower than the request's (500).
    /// - Each contact's interval is its `expires` parameter, else the Expires
    ///   header, else `policy.defaultExpires` (§10.3 step 7). A negative
    ///   interval is not delta-seconds (§20.19): 400. A non-zero interval below
    ///   `minExpires` is 423; one above `maxExpires` is shortened to it.
    /// - A contact matches an existing binding by `BindingKey` (§10.3 step 7,
    ///   RFC 5626 §6). Same Call-ID and a stored CSeq not lower than the
    ///   request's: 500, the request is out of order. Otherwise interval 0
    ///   removes the binding (`.unregistered`) and a positive interval
    ///   refreshes it.
    /// - A refresh with the same Call-ID keeps `registeredAt`. A different
    ///   Call-ID means the device restarted (a UA keeps one Call-ID for all
    ///   registrations of a boot cycle, §10.2.4): the binding is replaced in
    ///   place, reported as `.refreshed` so its key stays unique, with
    ///   `registeredAt` reset to `now`.
    /// - Interval 0 for a contact without a binding changes nothing (§10.3
    ///   step 7 only removes what exists).
    /// - The same binding named twice in one request: the last entry wins, as
    ///   if the entries had arrived as successive requests.
    public static func process(_ request: RegisterRequest, current: [Binding], policy: RegistrarPolicy, now: Date) -> RegisterOutcome {
        let live = current.filter { $0.aor == request.aor && $0.expiresAt > now }

        if request.isWildcard {
            return processWildcard(request, live: live)
        }
        if request.contacts.isEmpty {
            return .accepted(changes: [], bindings: sortedForResponse(live))
        }

        // Every contact is validated before any binding is touched.
        var intervals: [Int] = []
        intervals.reserveCapacity(request.contacts.count)
        for contact in request.contacts {
            let requested = contact.expires ?? request.expiresHeader ?? policy.defaultExpires
            if requested < 0 {
                return .rejected(status: 400, reason: "Invalid expires", minExpires: nil)
            }
            if requested > 0 && requested < policy.minExpires {
                return .rejected(status: 423, reason: "Interval Too Brief", minExpires: policy.minExpires)
            }
            intervals.append(min(requested, policy.maxExpires))
        }

        // Last entry wins for a binding named more than once.
        var lastIndex: [BindingKey: Int] = [:]
        for (index, contact) in request.contacts.enumerated() {
            lastIndex[contact.key] = index
        }
        let effective = request.contacts.indices.filter { lastIndex[request.contacts[$0].key] == $0 }

        var bindings: [BindingKey: Binding] = [:]
        for binding in live {
            bindings[binding.key] = binding
        }

        var changes: [BindingChange] = []
        var touched: Set<BindingKey> = []
        for index in effective {
            let contact = request.contacts[index]
            let key = contact.key
            let interval = intervals[index]
            let existing = bindings[key]

            if let existing, existing.callID == request.callID, existing.cseq >= request.cseq {
                return .rejected(status: 500, reason: "Out of order CSeq", minExpires: nil)
            }

            if interval == 0 {
                if let existing {
                    changes.append(.removed(existing, reason: .unregistered))
                    bindings[key] = nil
                }
                continue
            }

            let registeredAt: Date
            if let existing, existing.callID == request.callID {
                registeredAt = existing.registeredAt
            } else {
                registeredAt = now
            }
            let binding = Binding(
                aor: request.aor, contact: contact.uri, instanceID: contact.instanceID, regID: contact.regID,
                callID: request.callID, cseq: request.cseq, q: contact.q,
                expiresAt: now.addingTimeInterval(TimeInterval(interval)), path: request.path,
                source: request.source, userAgent: request.userAgent,
                registeredAt: registeredAt, updatedAt: now
            )
            if let existing {
                changes.append(.refreshed(old: existing, new: binding))
            } else {
                changes.append(.added(binding))
            }
            bindings[key] = binding
            touched.insert(key)
        }

        // Cap. A request that itself asks for more bindings than the cap is
        // refused with 403 rather than trimmed: RFC 3261 §10.3 step 8 has the
        // 200 OK list the bindings the registrar holds, and silently dropping
        // contacts the device has just been told it registered would leave it
        // unreachable on them without knowing. Otherwise room is made by
        // evicting the bindings this request did not touch, least recently
        // updated first: the devices most likely to be gone.
        if bindings.count > policy.maxBindingsPerAOR {
            if touched.count > policy.maxBindingsPerAOR {
                return .rejected(status: 403, reason: "Too many contacts", minExpires: nil)
            }
            let candidates = bindings.values
                .filter { !touched.contains($0.key) }
                .sorted(by: leastRecentlyUpdatedFirst)
            let excess = bindings.count - policy.maxBindingsPerAOR
            for binding in candidates.prefix(excess) {
                changes.append(.removed(binding, reason: .evicted))
                bindings[binding.key] = nil
            }
        }

        return .accepted(changes: changes, bindings: sortedForResponse(Array(bindings.values)))
    }

    /// `Contact: *` (RFC 3261 §10.3 step 6).
    private static func processWildcard(_ request: RegisterRequest, live: [Binding]) -> RegisterOutcome {
        guard request.contacts.isEmpty, request.expiresHeader == 0 else {
            return .rejected(status: 400, reason: "Invalid wildcard Contact", minExpires: nil)
        }
        // Step 6: the Call-ID/CSeq check of step 7 applies to every binding.
        if live.contains(where: { $0.callID == request.callID && $0.cseq >= request.cseq }) {
            return .rejected(status: 500, reason: "Out of order CSeq", minExpires: nil)
        }
        let changes = live.sorted(by: leastRecentlyUpdatedFirst).map { BindingChange.removed($0, reason: .unregistered) }
        return .accepted(changes: changes, bindings: [])
    }

    /// The order of the 200 OK's Contact list: highest q first, then most
    /// recently updated. A contact without q ranks as q=1.0, the value
    /// RFC 3261 §20.10 borrows from HTTP preference semantics for "no stated
    /// preference" so that an explicit lower q never outranks it.
    public static func sortedForResponse(_ bindings: [Binding]) -> [Binding] {
        bindings.sorted { a, b in
            let qa = a.q ?? 1000, qb = b.q ?? 1000
            if qa != qb { return qa > qb }
            if a.updatedAt != b.updatedAt { return a.updatedAt > b.updatedAt }
            return a.contact < b.contact
        }
    }

    private static func leastRecentlyUpdatedFirst(_ a: Binding, _ b: Binding) -> Bool {
        if a.updatedAt != b.updatedAt { return a.updatedAt < b.updatedAt }
        if a.registeredAt != b.registeredAt { return a.registeredAt < b.registeredAt }
        return a.contact < b.contact
    }
}
