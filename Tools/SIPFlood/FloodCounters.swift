import Synchronization

/// The flood's counts, written by the sender and the receiver threads.
/// Sendable through its atomics and mutex.
public final class FloodCounters: Sendable {
    let sent = Atomic<Int>(0)
    let bytesOut = Atomic<Int>(0)
    let sendErrors = Atomic<Int>(0)
    let received = Atomic<Int>(0)
    let bytesIn = Atomic<Int>(0)
    private let statuses = Mutex<[Int: Int]>([:])
    /// MonotonicClock seconds of the last answer, as bits of a Double.
    private let lastAnswerBits = Atomic<UInt64>(0)

    public init() {}

    func recordSent(count: Int, bytes: Int, errors: Int) {
        sent.add(count, ordering: .relaxed)
        bytesOut.add(bytes, ordering: .relaxed)
        sendErrors.add(errors, ordering: .relaxed)
    }

    func recordAnswers(count: Int, bytes: Int, statuses found: [Int: Int], at time: Double) {
        received.add(count, ordering: .relaxed)
        bytesIn.add(bytes, ordering: .relaxed)
        statuses.withLock { table in
            for (status, number) in found { table[status, default: 0] += number }
        }
        lastAnswerBits.store(time.bitPattern, ordering: .relaxed)
    }

    public var lastAnswerAt: Double? {
        let bits = lastAnswerBits.load(ordering: .relaxed)
        return bits == 0 ? nil : Double(bitPattern: bits)
    }

    public var statusCounts: [Int: Int] { statuses.withLock { $0 } }
}
