import DequeModule
import Foundation

/// The REGISTERs being handled and not yet answered (waiting for their
/// commit, a push-target write), by `RegisterTransactionID`, for
/// `RegisterAnswers` to drop their retransmissions. Each leaves when it is
/// answered (`end`) and at the latest `lifetime` after it began, since by
/// then the phone has stopped retransmitting (Timer F, 64 × T1): a REGISTER
/// whose handling never ends cannot swallow a later request of the same
/// name, and the set stays bounded by the REGISTERs of the last `lifetime`.
///
/// Begin times come in order, so the oldest is at the head of a FIFO:
/// expiry pops from it, O(1) each (a clock that went back only delays the
/// expiry of those behind). Ended entries stay in the FIFO (not in
/// the set) until they reach its head; those at the head go at once.
/// Pure; the caller passes the time.
///
/// | event | result |
/// |---|---|
/// | `begin` | in progress from `now` |
/// | `contains`, begun less than `lifetime` ago and not ended | true |
/// | `contains`, ended, or begun `lifetime` ago or more | false |
/// | `expire` | those begun `lifetime` ago or more forgotten; returns how many were still unanswered |
struct RegistersInProgress {
    let lifetime: TimeInterval
    private var began: [RegisterTransactionID: Date] = [:]
    /// Every `begin`, oldest first; an entry whose id has ended (or began
    /// again later) is skipped.
    private var order: Deque<(id: RegisterTransactionID, at: Date)> = []

    init(lifetime: TimeInterval) {
        self.lifetime = lifetime
    }

    /// How many are in progress (those past `lifetime` until `expire`).
    var count: Int { began.count }

    func contains(_ id: RegisterTransactionID, now: Date) -> Bool {
        guard let at = began[id] else { return false }
        return now.timeIntervalSince(at) < lifetime
    }

    mutating func begin(_ id: RegisterTransactionID, now: Date) {
        began[id] = now
        order.append((id, now))
    }

    /// `id` was answered, or will not be.
    mutating func end(_ id: RegisterTransactionID) {
        began[id] = nil
        while let first = order.first, began[first.id] != first.at { order.removeFirst() }
    }

    /// Forgets those begun `lifetime` ago or more; returns how many of them
    /// had not ended (REGISTERs left unanswered that long).
    @discardableResult
    mutating func expire(now: Date) -> Int {
        var unanswered = 0
        while let first = order.first, now.timeIntervalSince(first.at) >= lifetime {
            order.removeFirst()
            if began[first.id] == first.at {
                began[first.id] = nil
                unanswered += 1
            }
        }
        while let first = order.first, began[first.id] != first.at { order.removeFirst() }
        return unanswered
    }
}
