/// The inputs sent lately, to save when the server crashes or stalls: kept
/// up to 20 000 inputs or 64 MiB, oldest dropped first.
public struct InputHistory: Sendable {
    /// How many inputs before the window to save as well.
    public let keepBefore: Int
    public static let maximumCount = 20_000
    public static let maximumBytes = 64 << 20

    private var entries: [SentInput] = []
    private var head = 0
    private var bytes = 0

    public init(keepBefore: Int) {
        self.keepBefore = keepBefore
    }

    public var count: Int { entries.count - head }

    public mutating func append(_ input: FuzzInput, sentAt: Double) {
        entries.append(SentInput(input: input, sentAt: sentAt))
        bytes += input.bytes.count
        while count > 1 && (count > Self.maximumCount || bytes > Self.maximumBytes) {
            bytes -= entries[head].input.bytes.count
            head += 1
        }
        if head > 4096 && head * 2 > entries.count {
            entries.removeFirst(head)
            head = 0
        }
    }

    /// Every input sent at or after `since`, and the `keepBefore` inputs
    /// before the first of them; with no `since`, the last `keepBefore`.
    public func window(since: Double?) -> [SentInput] {
        let live = entries[head...]
        let first: Int
        if let since {
            first = live.firstIndex { $0.sentAt >= since } ?? live.endIndex
        } else {
            first = live.endIndex
        }
        let start = max(live.startIndex, first - keepBefore)
        return Array(live[start...])
    }
}
