import Dispatch

/// Runs a test's blocking socket work (reads with timeouts, sleeps while
/// polling) on a thread of its own instead of one of Swift's cooperative
/// threads: on two cores there are two of those, and tests run side by
/// side, so a test that blocks one while another blocks the other would
/// stall the timers and handlers of every service under test. Used with
/// `withTaskExecutorPreference`, so the work stays in the test's task and
/// its expectations are still the test's.
///
/// Why `@unchecked Sendable` is safe: its only stored property is a
/// `DispatchQueue`, which is safe to use from any thread.
final class BlockingWorkExecutor: TaskExecutor, @unchecked Sendable {
    private let queue = DispatchQueue(label: "tests.blocking-work")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
