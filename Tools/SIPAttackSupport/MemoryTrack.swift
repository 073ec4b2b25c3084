/// The target's resident memory over a run: first sample, largest, last.
public struct MemoryTrack: Sendable, Equatable {
    public private(set) var start: Int?
    public private(set) var peak: Int?
    public private(set) var end: Int?

    public init() {}

    public mutating func record(_ bytes: Int?) {
        guard let bytes else { return }
        if start == nil { start = bytes }
        peak = max(peak ?? bytes, bytes)
        end = bytes
    }

    /// End minus start, when both were seen.
    public var growth: Int? {
        guard let start, let end else { return nil }
        return end - start
    }

    /// "start 31.2 MiB, peak 40.0 MiB, end 35.1 MiB", or "not measured (no --pid)".
    public var summary: String {
        guard let start, let peak, let end else { return "not measured (no --pid)" }
        return "start \(ByteCount.text(start)), peak \(ByteCount.text(peak)), end \(ByteCount.text(end))"
    }
}
