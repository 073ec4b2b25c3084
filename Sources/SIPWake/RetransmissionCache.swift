import DequeModule
import Foundation

/// The answers a stateless server keeps so that a retransmitted request gets
/// the same answer again instead of being processed twice: what a UDP server
/// transaction would hold for Timer J (64 × T1 = 32 s, RFC 3261 §17.2.2),
/// without the transaction.
///
/// Every answer lives `lifetime` from when it was stored. Bounded by entries
/// and by bytes (the caller says what an answer costs): when storing one
/// more would pass either bound, the oldest answers are forgotten first,
/// before their time. Since the lifetime is the same for all, the oldest is
/// always at the head of a FIFO: expiry and eviction pop from it, storing
/// pushes onto it, each O(1). Pure; the caller passes the time. In the
/// module that uses it, so that it is compiled for its key and answer types.
///
/// | event | state | result |
/// |---|---|---|
/// | `store`, answer larger than `maxBytes` | — | not kept |
/// | `store`, full (entries or bytes) | oldest answers removed until it fits | kept; the removed ones counted as evicted |
/// | `store`, key already kept | answer replaced, keeps its age | kept |
/// | `answer(for:)`, kept and younger than `lifetime` | — | the answer |
/// | `answer(for:)`, otherwise | — | nil |
/// | `expire` | answers older than `lifetime` removed | how many |
struct RetransmissionCache<Key: Hashable, Answer> {
    let lifetime: TimeInterval
    let maxEntries: Int
    let maxBytes: Int
    /// The bytes of the answers kept, as the caller counted them.
    private(set) var bytes = 0
    /// Answers forgotten before their lifetime to make room, since creation.
    private(set) var evicted = 0

    private struct Kept {
        var answer: Answer
        var bytes: Int
        let storedAt: Date
    }

    private var answers: [Key: Kept] = [:]
    /// The keys of `answers`, oldest first: one entry per key.
    private var order: Deque<Key> = []

    init(lifetime: TimeInterval, maxEntries: Int, maxBytes: Int) {
        self.lifetime = lifetime
        self.maxEntries = maxEntries
        self.maxBytes = maxBytes
    }

    /// How many answers are kept.
    var count: Int { answers.count }

    /// Keeps `answer` for `key` until `now + lifetime`, or until room is
    /// needed. `bytes` is what it costs against `maxBytes`.
    mutating func store(_ answer: Answer, for key: Key, bytes: Int, now: Date) {
        expire(now: now)
        if var kept = answers[key] {
            self.bytes += bytes - kept.bytes
            kept.answer = answer
            kept.bytes = bytes
            answers[key] = kept
            while self.bytes > maxBytes, removeOldest() { evicted += 1 }
            return
        }
        guard maxEntries > 0, bytes <= maxBytes else { return }
        while answers.count >= maxEntries || self.bytes + bytes > maxBytes, removeOldest() { evicted += 1 }
        answers[key] = Kept(answer: answer, bytes: bytes, storedAt: now)
        order.append(key)
        self.bytes += bytes
    }

    /// The answer kept for `key`, if it is younger than `lifetime`.
    func answer(for key: Key, now: Date) -> Answer? {
        guard let kept = answers[key], now.timeIntervalSince(kept.storedAt) < lifetime else { return nil }
        return kept.answer
    }

    /// Forgets the answers older than `lifetime`; returns how many.
    @discardableResult
    mutating func expire(now: Date) -> Int {
        var removed = 0
        while let key = order.first, let kept = answers[key], now.timeIntervalSince(kept.storedAt) >= lifetime {
            removeOldest()
            removed += 1
        }
        return removed
    }

    /// Removes the oldest answer; false when there is none.
    @discardableResult
    private mutating func removeOldest() -> Bool {
        guard let key = order.popFirst() else { return false }
        if let kept = answers.removeValue(forKey: key) { bytes -= kept.bytes }
        return true
    }
}
