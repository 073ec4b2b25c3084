import Foundation
import Model
import SIPCore
import TestSupport
import Testing

/// The SIP loop runs ahead of sipwake's background threads: raised when the
/// system allows it (root, CAP_SYS_NICE or LimitNICE), never lowered; the
/// call-record writer always lowered.
@Suite struct ThreadPriorityTests {
    /// Whether this process may raise a thread's priority to the loop's.
    private var mayRaise: Bool {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(__RLIMIT_NICE.rawValue), &limit)
        return geteuid() == 0 || 20 - Int(limit.rlim_cur) <= Int(ThreadPriority.sipLoop)
    }

    @Test func theSIPLoopIsRaisedWhenTheSystemAllowsIt() throws {
        let name = "prio-loop-\(getpid() % 100)"
        let loop = SIPLoop(name: name)
        try loop.start()
        defer { loop.stop() }
        let values = threadNiceValues(named: name)
        #expect(values.count == 1)
        #expect(loop.runsAheadOfBackgroundThreads == mayRaise)
        #expect(values.first == (mayRaise ? Int(ThreadPriority.sipLoop) : 0))
    }

    @Test func aBackgroundThreadIsLoweredAndTheCallerKeepsItsOwn() async throws {
        let before = ThreadPriority.current
        let seen = await withCheckedContinuation { (done: CheckedContinuation<(Int32, Bool), Never>) in
            let thread = Thread {
                let lowered = ThreadPriority.set(ThreadPriority.background)
                done.resume(returning: (ThreadPriority.current, lowered))
            }
            thread.start()
        }
        #expect(seen.1)
        #expect(seen.0 == ThreadPriority.background)
        #expect(ThreadPriority.current == before)
    }
}
