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

    @Test func theRealClocksGiveARatio() {
        var load = LoopLoad(windowMilliseconds: 1)
        let start = ContinuousClock.now
        while ContinuousClock.now - start < .milliseconds(5) { load.sample() }
        #expect(load.lastRatio > 0)
    }
}
