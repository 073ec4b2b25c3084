/// Latencies of one path through the server, in microseconds, in buckets of
/// 1 µs up to 10 ms (then one overflow bucket): cheap to record on the SIP
/// loop, exact enough for percentiles. Logged when the server stops, so a
/// benchmark run can read sipwake's own time for each path. Not thread-safe:
/// one thread owns each histogram (the SIP loop, or the push HTTP thread).
public final class LatencyHistogram {
    private var buckets = [UInt32](repeating: 0, count: 10_001)
    public private(set) var count = 0
    private var maxMicroseconds = 0

    public init() {}

    public func record(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let micros = max(0, Int(seconds) * 1_000_000 + Int(attoseconds / 1_000_000_000_000))
        buckets[min(micros, buckets.count - 1)] &+= 1
        count += 1
        maxMicroseconds = max(maxMicroseconds, micros)
    }

    /// The value at quantile `q` (0...1), in microseconds.
    public func percentile(_ q: Double) -> Int {
        guard count > 0 else { return 0 }
        let rank = max(1, Int((Double(count) * q).rounded(.up)))
        var seen = 0
        for (micros, n) in buckets.enumerated() {
            seen += Int(n)
            if seen >= rank { return micros == buckets.count - 1 ? maxMicroseconds : micros }
        }
        return maxMicroseconds
    }

    /// `n`, p50, p90, p99, p99.9 and max, for a log line's metadata.
    public var summary: String {
        "n=\(count) p50=\(percentile(0.5))us p90=\(percentile(0.9))us p99=\(percentile(0.99))us "
            + "p99.9=\(percentile(0.999))us max=\(maxMicroseconds)us"
    }
}
