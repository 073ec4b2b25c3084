@testable import SIPCore
import Testing

/// `LoopLoad` compares the thread's CPU time with the wall clock, per window.
@Suite struct LoopLoadTests {
    let ms: UInt64 = 1_000_000

    @Test func aWindowSpentComputingIsOverloaded() {
        var load = LoopLoad(windowMilliseconds: 100, threshold: 0.85, wall: 0, cpu: 0)
        load.sample(wall: 50 * ms, cpu: { Issue.record("read before the window closed"); return 0 })
        #expect(!load.isOverloaded)
        load.sample(wall: 100 * ms, cpu: { 95 * ms })
        #expect(load.isOverloaded)
        #expect(load.lastRatio == 0.95)
    }

    @Test func aWindowSpentWaitingIsNot() {
        var load = LoopLoad(windowMilliseconds: 100, threshold: 0.85, wall: 0, cpu: 0)
        load.sample(wall: 100 * ms, cpu: { 95 * ms })
        load.sample(wall: 200 * ms, cpu: { 95 * ms + 30 * ms })
        #expect(!load.isOverloaded)
        #expect(abs(load.lastRatio - 0.3) < 1e-9)
    }

    @Test func aLoopThatSleptThroughSeveralWindowsWasIdle() {
        var load = LoopLoad(windowMilliseconds: 100, threshold: 0.85, wall: 0, cpu: 0)
        load.sample(wall: 100 * ms, cpu: { 95 * ms })
        load.sample(wall: 900 * ms, cpu: { 800 * ms })
        #expect(load.lastRatio == 0)
    }

    /// A thread that spins reads as busy in some window. One window may read
    /// idle on a shared machine (the thread was descheduled through it), so
    /// the spin goes on, for up to 2 s, until a window reads busy.
    @Test func theRealClocksGiveARatio() {
        var load = LoopLoad(windowMilliseconds: 1)
        let start = ContinuousClock.now
        var highest = 0.0
        while highest < 0.5, ContinuousClock.now - start < .seconds(2) {
            load.sample()
            highest = max(highest, load.lastRatio)
        }
        #expect(highest >= 0.5)
    }
}
