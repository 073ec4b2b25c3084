import Glibc

/// How busy the SIP loop thread is: the CPU time it used over the last
/// window (100 ms) against the wall-clock time, read from the kernel's
/// per-thread clock, so Sofia's own reading and parsing count too. Above
/// `threshold` the loop is falling behind what arrives: the sockets' queues
/// grow and every request, good or bad, waits longer.
///
/// `sample()` costs a clock read per call and a thread-CPU read once per
/// window. Loop thread only.
public struct LoopLoad {
    public let window: UInt64
    public let threshold: Double
    private var windowStart: UInt64
    private var cpuAtStart: UInt64
    /// The busy fraction of the last complete window.
    public private(set) var lastRatio: Double = 0

    public init(windowMilliseconds: UInt64 = 100, threshold: Double = 0.85) {
        self.init(windowMilliseconds: windowMilliseconds, threshold: threshold,
                  wall: Self.nanoseconds(CLOCK_MONOTONIC), cpu: Self.nanoseconds(CLOCK_THREAD_CPUTIME_ID))
    }

    init(windowMilliseconds: UInt64, threshold: Double, wall: UInt64, cpu: UInt64) {
        window = windowMilliseconds * 1_000_000
        self.threshold = threshold
        windowStart = wall
        cpuAtStart = cpu
    }

    /// True while the last complete window was busier than `threshold`.
    public var isOverloaded: Bool { lastRatio > threshold }

    /// Closes the window when it is over. Call often (every request).
    public mutating func sample() {
        sample(wall: Self.nanoseconds(CLOCK_MONOTONIC), cpu: { Self.nanoseconds(CLOCK_THREAD_CPUTIME_ID) })
    }

    /// `sample()` with the clocks given: the wall clock now, and the
    /// thread's CPU clock, read only when a window closes.
    mutating func sample(wall now: UInt64, cpu readCPU: () -> UInt64) {
        let elapsed = now &- windowStart
        guard elapsed >= window else { return }
        let cpu = readCPU()
        // A loop that slept through whole windows was idle in them.
        lastRatio = elapsed > window * 3 ? 0 : Double(cpu &- cpuAtStart) / Double(elapsed)
        windowStart = now
        cpuAtStart = cpu
    }

    private static func nanoseconds(_ clock: clockid_t) -> UInt64 {
        var ts = timespec()
        clock_gettime(clock, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
}
