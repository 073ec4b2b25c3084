import Foundation

/// Median, p90, p99 and max of a set of durations in seconds (nearest rank).
public struct LatencyStatistics: Sendable, Equatable {
    public let count: Int
    public let median: Double?
    public let p90: Double?
    public let p99: Double?
    public let max: Double?

    public init(_ samples: [Double]) {
        let sorted = samples.sorted()
        count = sorted.count
        median = Self.rank(sorted, 0.5)
        p90 = Self.rank(sorted, 0.9)
        p99 = Self.rank(sorted, 0.99)
        max = sorted.last
    }

    /// The smallest sample with at least `fraction` of the samples at or below it.
    private static func rank(_ sorted: [Double], _ fraction: Double) -> Double? {
        guard !sorted.isEmpty else { return nil }
        let index = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[Swift.max(0, Swift.min(sorted.count - 1, index))]
    }

    /// "0.41 / 0.62 / 1.30 / 2.05" in milliseconds, "-" for no samples.
    public var millisecondsText: String {
        [median, p90, p99, max].map { Self.milliseconds($0) }.joined(separator: " / ")
    }

    public static func milliseconds(_ seconds: Double?) -> String {
        guard let seconds else { return "-" }
        return String(format: "%.2f", seconds * 1000)
    }
}
