import Forking
import Foundation
import Testing

/// The shutdown rows (29-33) of the transition table in docs/forking.md.
@Suite struct CallForkShutdownTests {
    typealias F = ForkFixture

    // MARK: Row 29: starting

    @Test func shutdownBeforeTheStartAnswers503AndFinishes() {
        var fork = F.fork()
        #expect(fork.handle(.shutdown, now: F.at(0.01)) == [.respondShuttingDown])
        #expect(fork.record.outcome == .interrupted)
        #expect(fork.record.finalStatus == 503)
        #expect(fork.record.endedAt == F.at(0.01))
        #expect(fork.isFinished)
        #expect(fork.handle(.start(bindings: [F.binding("a")], targets: [F.target(1)], wakeupHold: true),
                            now: F.at(0.02)).isEmpty)
    }

    // MARK: Row 30: live

    @Test func shutdownOfALiveCallCancelsAnswers503AndTellsEveryDeviceNow() {
        let a = F.binding("a"), b = F.binding("b")
        var (fork, _) = F.started(bindings: [a, b], targets: [F.target(1), F.target(2)])
        _ = fork.handle(.pushResult(1, .delivered(status: 200)), now: F.at(0.2))
        _ = fork.handle(.provisional(1, status: 180), now: F.at(1))
        let actions = fork.handle(.shutdown, now: F.at(5))
        // Branch 1 rang (CANCEL), branch 2 never answered (stopped).
        #expect(actions.cancels.map(\.0) == [1])
        #expect(actions.retires.map(\.0) == [2])
        #expect(actions.stops.allSatisfy { $0.1 == .shutdown })
        #expect(actions.filter { $0 == .respondShuttingDown }.count == 1)
        #expect(actions.responses.isEmpty && actions.relayedFinals.isEmpty)
        // Branches are cancelled before the caller is answered.
        #expect(actions.firstIndex(of: .respondShuttingDown)! > actions.firstIndex(of: .retire(2, .shutdown))!)
        // Push 2 is still in flight: its device may have woken, so it is told too.
        #expect(actions.pushes.map(\.1.tupleID) == [1, 2])
        #expect(actions.pushes.allSatisfy { $0.2 == .missed })
        #expect(actions.messages.map(\.contact) == [a.contact, b.contact])
        #expect(fork.record.outcome == .interrupted)
        #expect(fork.record.finalStatus == 503)
        #expect(fork.record.endedAt == F.at(5))
        #expect(fork.record.branches.map(\.cancelled) == ["shutdown", "shutdown"])
        #expect(fork.record.events.contains { $0.event == "shutting down" })
        #expect(fork.phase == .ended)
        #expect(fork.nextDeadline == nil, "no grace period, no drain: the proxy bounds the wait")
    }

    @Test func noGracePeriodAfterAShutdown() {
        var (fork, _) = F.started(bindings: [], targets: [F.target(1)], settings: ForkSettings(missedCallGrace: 15))
        _ = fork.handle(.pushResult(1, .delivered(status: 200)), now: F.at(0.2))
        _ = fork.handle(.shutdown, now: F.at(2))
        #expect(fork.handle(.bindingAdded(F.binding("late")), now: F.at(2.1)).isEmpty)
    }

    @Test func aShutDownCallIsFinishedOnceItsPushesAreAnswered() {
        var (fork, _) = F.started(bindings: [F.binding("a")], targets: [F.target(1)])
        _ = fork.handle(.shutdown, now: F.at(1))
        // The incoming-call push (1) and the missed push (2) are in flight.
        #expect(fork.phase == .ended)
        // A retryable answer is not retried after the end (row 24).
        #expect(fork.handle(.pushResult(1, .retryable(status: 503, detail: nil)), now: F.at(1.5)).isEmpty)
        #expect(fork.phase == .ended)
        _ = fork.handle(.pushResult(2, .delivered(status: 200)), now: F.at(1.6))
        #expect(fork.isFinished, "the cancelled branch's final response is not waited for")
        #expect(fork.record.pushes.map(\.result) == ["retryable", "delivered"])
    }

    @Test func aShutDownCallWithNoPushFinishesAtOnce() {
        var (fork, _) = F.started(bindings: [F.binding("a")], targets: [])
        let actions = fork.handle(.shutdown, now: F.at(1))
        #expect(actions.stops.count == 1)
        #expect(actions.messages.count == 1)
        #expect(fork.isFinished)
    }

    @Test func shutdownWhileTheTuplesAreReadPushesNobody() {
        let a = F.binding("a")
        var (fork, _) = F.started(bindings: [a], targets: nil)
        let actions = fork.handle(.shutdown, now: F.at(0.01))
        #expect(actions.pushes.isEmpty)
        #expect(actions.messages.map(\.contact) == [a.contact])
        #expect(fork.isFinished)
        #expect(fork.handle(.tuplesLoaded([F.target(1)]), now: F.at(0.02)).isEmpty)
    }

    @Test func shutdownFollowsTheEndNotificationSetting() {
        var (pushOnly, _) = F.started(bindings: [F.binding("a")], targets: [F.target(1)],
                                      settings: ForkSettings(endNotification: .push))
        let pushed = pushOnly.handle(.shutdown, now: F.at(1))
        #expect(pushed.pushes.map(\.2) == [.missed])
        #expect(pushed.messages.isEmpty)
        var (messageOnly, _) = F.started(bindings: [F.binding("a")], targets: [F.target(1)],
                                         settings: ForkSettings(endNotification: .message))
        let messaged = messageOnly.handle(.shutdown, now: F.at(1))
        #expect(messaged.pushes.isEmpty)
        #expect(messaged.messages.count == 1)
    }

    // MARK: Row 31: ended

    @Test func shutdownOfAnEndedCallEndsItsGracePeriodAndKeepsItsOutcome() {
        var (fork, _) = F.started(bindings: [], targets: [F.target(1)], settings: ForkSettings(missedCallGrace: 15))
        _ = fork.handle(.pushResult(1, .delivered(status: 200)), now: F.at(0.2))
        _ = fork.handle(.callerCancelled(answeredElsewhere: false), now: F.at(2))
        // The missed push (2) is in flight.
        #expect(fork.handle(.shutdown, now: F.at(3)).isEmpty)
        #expect(fork.record.outcome == .cancelled)
        #expect(fork.record.finalStatus == 487)
        #expect(fork.record.endedAt == F.at(2))
        #expect(fork.phase == .ended)
        #expect(fork.nextDeadline == nil)
        #expect(fork.handle(.bindingAdded(F.binding("late")), now: F.at(3.5)).isEmpty, "grace period over")
        _ = fork.handle(.pushResult(2, .delivered(status: 200)), now: F.at(3.6))
        #expect(fork.isFinished)
    }

    @Test func shutdownDoesNotWaitForCancelledBranches() {
        var (fork, _) = F.started(bindings: [F.binding("a"), F.binding("b")], targets: [])
        _ = fork.handle(.provisional(2, status: 180), now: F.at(0.5))
        _ = fork.handle(.final(1, status: 200), now: F.at(1))
        #expect(fork.phase == .ended)
        #expect(fork.handle(.shutdown, now: F.at(2)).isEmpty)
        #expect(fork.record.outcome == .answered)
        #expect(fork.isFinished)
    }

    // MARK: Row 33: finished, and a second shutdown

    @Test func shutdownOfAFinishedCallChangesNothing() {
        var (fork, _) = F.started(bindings: [F.binding("a")], targets: [])
        _ = fork.handle(.final(1, status: 200), now: F.at(1))
        #expect(fork.isFinished)
        let before = fork.record
        #expect(fork.handle(.shutdown, now: F.at(2)).isEmpty)
        #expect(fork.record == before)
    }

    @Test func aSecondShutdownChangesNothing() {
        var (fork, _) = F.started(bindings: [F.binding("a")], targets: [F.target(1)])
        _ = fork.handle(.shutdown, now: F.at(1))
        let before = fork.record
        #expect(fork.handle(.shutdown, now: F.at(1.1)).isEmpty)
        #expect(fork.record == before)
    }
}
