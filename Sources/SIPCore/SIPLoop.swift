import CSofiaSIP
import CSofiaShim
import Foundation
import Glibc
import Model
import Synchronization

/// The SIP loop: one thread running Sofia's `su_root`, and the serial executor
/// that the actors owning SIP state run on.
///
/// Sofia-SIP is single-threaded: every Sofia object must be created, used and
/// destroyed on the thread that runs its root. Making that thread an executor
/// means Sofia callbacks and Swift `await` continuations land on one thread, so
/// the call and registrar logic needs no locks.
///
/// Jobs from other threads are queued under a mutex and the loop is woken
/// through a pipe registered with `su_root`.
public final class SIPLoop: SerialExecutor, @unchecked Sendable {
    // Why @unchecked Sendable is safe: `queue` lives in a `Mutex`; `root`,
    // `loopThread` and `deferred` are written once on start (before `ready`
    // is signalled) or only touched on the loop thread itself, which
    // `checkIsolated()` enforces for every caller that relies on isolation.

    private enum Work {
        case job(UnownedJob)
        case closure(@Sendable () -> Void)
    }

    private struct Queue {
        var work: [Work] = []
        var wakePending = false
        var stopping = false
        /// The loop thread has ended and closed the wake pipe: work submitted
        /// now is dropped, and nothing is written to the pipe's old
        /// descriptor, which the process may already have reused.
        var finished = false
    }

    private let queue = Mutex(Queue())
    private var wakeRead: Int32 = -1
    private var wakeWrite: Int32 = -1
    private var root: OpaquePointer?
    private var loopThread: pthread_t?
    /// Releases deferred to the next loop turn (loop thread only).
    private var deferred: [() -> Void] = []
    /// A wake-up for `deferred` is already on its way (loop thread only).
    private var deferredWakeArmed = false
    private let name: String
    private let runsAhead = Mutex(false)

    /// Whether the loop thread runs at `ThreadPriority.sipLoop` (the system
    /// allowed the raise), for the start-up log.
    public var runsAheadOfBackgroundThreads: Bool { runsAhead.withLock { $0 } }

    public init(name: String = "sip-loop") {
        self.name = name
    }

    /// The Sofia root, for creating agents. Loop thread only.
    public var suRoot: OpaquePointer {
        checkIsolated()
        return root!
    }

    /// Starts the loop thread and returns once the root is ready.
    public func start() throws {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            throw SIPCoreError.loopStartFailed("pipe: \(String(cString: strerror(errno)))")
        }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        wakeRead = fds[0]
        wakeWrite = fds[1]
        let ready = DispatchSemaphore(value: 0)
        let failure = Mutex<String?>(nil)
        let thread = Thread { [self] in
            self.threadMain(ready: ready, failure: failure)
        }
        thread.name = name
        thread.stackSize = 8 << 20
        thread.start()
        ready.wait()
        if let message = failure.withLock({ $0 }) {
            throw SIPCoreError.loopStartFailed(message)
        }
    }

    /// Asks the loop to finish: queued work still runs, then `su_root_run` returns.
    public func stop() {
        queue.withLock { q in
            guard !q.finished else { return }
            q.stopping = true
            signal()
        }
    }

    /// Runs `body` on the loop thread.
    public func execute(_ body: @escaping @Sendable () -> Void) {
        submit(.closure(body))
    }

    /// Runs `release` on the next loop turn, never inside the current Sofia
    /// callback: a Sofia object must not be freed from its own callback.
    public func deferRelease(_ release: @escaping () -> Void) {
        checkIsolated()
        deferred.append(release)
        if !deferredWakeArmed {
            deferredWakeArmed = true
            queue.withLock { q in if !q.finished { signal() } }
        }
    }

    // MARK: SerialExecutor

    public func enqueue(_ job: consuming ExecutorJob) {
        submit(.job(UnownedJob(job)))
    }

    /// Queues work from any thread and wakes the loop, once per batch.
    /// Dropped once the loop has finished (a late push answer, say): what
    /// it would have touched is gone with the loop.
    private func submit(_ work: Work) {
        queue.withLock { q in
            guard !q.finished else { return }
            q.work.append(work)
            guard !q.wakePending else { return }
            q.wakePending = true
            signal()
        }
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    public var isOnLoopThread: Bool {
        guard let loopThread else { return false }
        return pthread_equal(loopThread, pthread_self()) != 0
    }

    public func checkIsolated() {
        precondition(isOnLoopThread, "SIP state touched off the SIP loop thread")
    }

    // MARK: Loop thread

    /// Writes one wake-up byte. Called with `queue` locked, after checking
    /// `finished`: the pipe is closed under the same lock.
    private func signal() {
        var one: UInt8 = 1
        _ = write(wakeWrite, &one, 1)
    }

    /// The wake pipe's write end, and whether the loop thread has ended: for tests.
    var wakeDescriptor: Int32 { wakeWrite }
    var isFinished: Bool { queue.withLock { $0.finished } }

    private func threadMain(ready: DispatchSemaphore, failure: borrowing Mutex<String?>) {
        loopThread = pthread_self()
        // Name the OS thread so `top -H` and perf show the SIP loop.
        _ = swk_set_current_thread_name(String(name.prefix(15)))
        // Ahead of sipwake's background threads when the system allows it.
        let ahead = ThreadPriority.set(ThreadPriority.sipLoop)
        runsAhead.withLock { $0 = ahead }
        su_init()
        guard let root = su_root_create(nil) else {
            failure.withLock { $0 = "su_root_create failed" }
            ready.signal()
            return
        }
        self.root = root
        var wait = su_wait_t()
        su_wait_create(&wait, wakeRead, Int32(POLLIN))
        let arg = Unmanaged.passUnretained(self).toOpaque()
        let callback: su_wakeup_f = { _, _, arg in
            let loop = Unmanaged<SIPLoop>.fromOpaque(UnsafeRawPointer(arg!)).takeUnretainedValue()
            loop.drain()
            return 0
        }
        if su_root_register(root, &wait, callback, arg, 0) < 0 {
            failure.withLock { $0 = "su_root_register failed" }
            ready.signal()
            return
        }
        ready.signal()
        su_root_run(root)
        // Finish what is queued so no continuation is lost, then tear down.
        drain()
        runDeferred()
        su_root_unregister(root, &wait, callback, arg)
        su_root_destroy(root)
        self.root = nil
        su_deinit()
        queue.withLock { q in
            q.finished = true
            close(wakeRead)
            close(wakeWrite)
        }
    }

    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 256)
        while read(wakeRead, &buffer, buffer.count) > 0 {}
        deferredWakeArmed = false
        runDeferred()
        let (work, stopping) = queue.withLock { q -> ([Work], Bool) in
            let w = q.work
            q.work.removeAll(keepingCapacity: true)
            q.wakePending = false
            return (w, q.stopping)
        }
        let executor = asUnownedSerialExecutor()
        for item in work {
            switch item {
            case .job(let job): job.runSynchronously(on: executor)
            case .closure(let body): body()
            }
        }
        if stopping, let root {
            su_root_break(root)
        }
    }

    /// Runs the releases deferred so far, now. The agent calls it before it
    /// is destroyed: a transaction must be freed while its agent exists.
    func runDeferred() {
        while !deferred.isEmpty {
            let releases = deferred
            deferred.removeAll()
            for release in releases { release() }
        }
    }
}
