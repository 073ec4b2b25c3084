import Glibc

/// Seconds on CLOCK_MONOTONIC: what every latency and deadline is measured in.
public enum MonotonicClock {
    public static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Sleeps until `deadline` (no-op when it has passed).
    public static func sleep(until deadline: Double) {
        let delay = deadline - now()
        if delay > 0 { sleep(seconds: delay) }
    }

    public static func sleep(seconds: Double) {
        guard seconds > 0 else { return }
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
    }
}
