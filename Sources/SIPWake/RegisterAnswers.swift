import Foundation
import SIPCore

/// What lets REGISTERs go without server transactions: Sofia would keep each
/// UDP one 32 s after its answer (Timer J), about 10 KiB, which in a
/// registration storm is most of the process's memory. A REGISTER is
/// therefore kept stateless (`IncomingRequest.keepStateless`) and its
/// retransmissions arrive as new requests; this recognises them by what
/// names the transaction (`RegisterTransactionID`):
///
/// | retransmission of a REGISTER | what happens |
/// |---|---|
/// | still being handled (waiting for its commit, a push-target write) | dropped: the answer is on its way |
/// | still unanswered 32 s after it began (its phone has stopped retransmitting) | handled anew: the REGISTER is forgotten as in progress, and counted |
/// | answered in the last 32 s, answer kept | the same answer again (same To tag, Contacts, Date) |
/// | answered statelessly before authentication (challenge, refusal) | not kept: handled anew, as any stranger's request |
/// | answer forgotten (older than 32 s, or evicted to make room) | handled anew (same Call-ID and CSeq: 500 Out of order CSeq) |
///
/// Only answers to REGISTERs that passed authentication are kept, so a
/// stranger cannot fill it; it is bounded all the same, by entries and by
/// bytes, and forgets its oldest answers first (`RetransmissionCache`).
/// Used on the SIP loop only.
struct RegisterAnswers {
    /// 64 × T1: as long as Sofia would keep the transaction.
    static let lifetime: TimeInterval = 32

    private var kept: RetransmissionCache<RegisterTransactionID, RegisterAnswer>
    /// The REGISTERs being handled and not yet answered.
    private var inProgress = RegistersInProgress(lifetime: Self.lifetime)
    private let metrics: RegistrarMetrics

    /// What a REGISTER that names a transaction already seen is.
    enum Retransmission {
        /// Its REGISTER is still being handled: dropped.
        case inProgress
        /// Its REGISTER was answered lately: this answer again.
        case answered(RegisterAnswer)
    }

    init(maxEntries: Int, maxBytes: Int, metrics: RegistrarMetrics) {
        kept = RetransmissionCache(lifetime: Self.lifetime, maxEntries: maxEntries, maxBytes: maxBytes)
        self.metrics = metrics
    }

    var count: Int { kept.count }
    /// How many REGISTERs are being handled.
    var inProgressCount: Int { inProgress.count }

    /// True when `request` is a retransmission, now answered again or dropped.
    mutating func absorb(_ request: IncomingRequest, now: Date) -> Bool {
        let id = RegisterTransactionID(request)
        switch retransmission(id, now: now) {
        case .inProgress:
            metrics.retransmissionsDropped.increment()
            request.drop()
            return true
        case .answered(let answer):
            metrics.retransmissionsAnswered.increment()
            answer.send(to: request, id: id)
            return true
        case nil:
            return false
        }
    }

    /// What a REGISTER named `id` arriving now retransmits; nil when it is new.
    func retransmission(_ id: RegisterTransactionID, now: Date) -> Retransmission? {
        if inProgress.contains(id, now: now) { return .inProgress }
        return kept.answer(for: id, now: now).map { .answered($0) }
    }

    /// `id`'s REGISTER waits (for its commit): its retransmissions are
    /// dropped until it is answered (`send`), 32 s at most.
    mutating func begin(_ id: RegisterTransactionID, now: Date) {
        inProgress.begin(id, now: now)
    }

    /// Sends `answer` to `request` and keeps it for its retransmissions.
    mutating func send(_ answer: RegisterAnswer, to request: IncomingRequest, id: RegisterTransactionID, now: Date) {
        answer.send(to: request, id: id)
        inProgress.end(id)
        let evicted = kept.evicted
        kept.store(answer, for: id, bytes: answer.size, now: now)
        if kept.evicted > evicted { metrics.answersEvicted.increment(by: kept.evicted - evicted) }
        metrics.answersKept.record(kept.count)
    }

    /// Forgets the answers older than `lifetime`, and the REGISTERs in
    /// progress that long (their phones have stopped retransmitting).
    /// Returns how many of those were still unanswered.
    mutating func expire(now: Date) -> Int {
        if kept.expire(now: now) > 0 { metrics.answersKept.record(kept.count) }
        return inProgress.expire(now: now)
    }
}
