#if canImport(Glibc)
import Glibc
#endif

/// The calling thread's scheduling priority (its nice value, -20 to 19; on
/// Linux each thread has its own).
///
/// sipwake runs its SIP loop ahead of its own background threads: when the
/// machine is busy, a message waiting on the loop is handled before a call
/// record is written. Lowering a thread's priority is always allowed;
/// raising it needs `CAP_SYS_NICE` or a `RLIMIT_NICE` (systemd's `LimitNICE=`)
/// that allows it.
public enum ThreadPriority {
    /// The SIP loop's nice value, when it may be raised.
    public static let sipLoop: Int32 = -10
    /// Threads whose work can wait a moment (the call-record writer).
    public static let background: Int32 = 10

    /// Sets the calling thread's nice value; false when the system refused
    /// it (raising without the right to), and the thread keeps its own.
    @discardableResult
    public static func set(_ nice: Int32) -> Bool {
        // PRIO_PROCESS with id 0 is the calling thread on Linux, not the whole process.
        setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice) == 0
    }

    /// The calling thread's nice value.
    public static var current: Int32 {
        getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
    }
}
