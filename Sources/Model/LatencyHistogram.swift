/// Latencies of one path through the server: 1 µs buckets up to 10 ms, then
/// 100 µs buckets up to 1 s (then one overflow bucket): cheap to record,
/// exact enough for percentiles, and a tail under load still has a value.
/// Logged when the server stops, so a benchmark run can read sipwake's own
/// time for each path. Not thread-safe: one thread owns each histogram (the
/// SIP loop, or the push HTTP thread).
public final class LatencyHistogram {
    /// Microseconds below which buckets are 1 µs wide.
    static let fineLimit = 10_000
    /// Width of the buckets from ``fineLimit`` on, in microseconds.
    static let coarseWidth = 100
    /// Microseconds from which everything shares the overflow bucket.
    static let limit = 1_000_000

    private var buckets = [UInt32](repeating: 0, count: fineLimit + (limit - fineLimit) / coarseWidth + 1)
    public private(set) var count = 0
    private var maxMicroseconds = 0

    public init() {}

    public func record(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let micros = max(0, Int(seconds) * 1_000_000 + Int(attoseconds / 1_000_000_000_000))
        buckets[Self.bucket(of: micros)] &+= 1
        count += 1
        maxMicroseconds = max(maxMicroseconds, micros)
    }

    static func bucket(of micros: Int) -> Int {
        if micros < fineLimit { return micros }
        if micros >= limit { return fineLimit + (limit - fineLimit) / coarseWidth }
        return fineLimit + (micros - fineLimit) / coarseWidth
    }

    /// The lowest latency of `bucket`, in microseconds.
    static func lowerBound(of bucket: Int) -> Int {
        bucket < fineLimit ? bucket : fineLimit + (bucket - fineLimit) * coarseWidth
    }

    /// The value at quantile `q` (0...1), in microseconds.
    public func percentile(_ q: Double) -> Int {
        guard count > 0 else { return 0 }
        let rank = max(1, Int((Double(count) * q).rounded(.up)))
        var seen = 0
        for (bucket, n) in buckets.enumerated() {
            seen += Int(n)
            if seen >= rank {
                return bucket == buckets.count - 1 ? maxMicroseconds : min(Self.lowerBound(of: bucket), maxMicroseconds)
            }
        }
        return maxMicroseconds
    }

    /// `n`, p50, p90, p99, p99.9 and max, for a log line's metadata.
    public var summary: String {
        "n=\(count) p50=\(percentile(0.5))us p90=\(percentile(0.9))us p99=\(percentile(0.99))us "
            + "p99.9=\(percentile(0.999))us max=\(maxMicroseconds)us"
    }
}
