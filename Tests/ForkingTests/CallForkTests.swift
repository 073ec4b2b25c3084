import Forking
import Foundation
import Model
import Testing

/// One test per row of the transition table in docs/forking.md.
@Suite struct CallForkTests {
    typealias F = ForkFixture

    // MARK: Start

    @Test func startForksToEveryContactAndPushesEveryTuple() {
        let (fork, actions) = F.started(bindings: [F.binding("a"), F.binding("b")], targets: [F.target(1), F.target(2)])
        #expect(actions.forks.map(\.1.contact) == [F.binding("a").contact, F.binding("b").contact])
        #expect(actions.pushes.map(\.1.tupleID) == [1, 2])
        #expect(actions.pushes.allSatisfy { $0.2 == .incomingCall })
        #expect(actions.responses.isEmpty)
        #expect(fork.phase == .live)
        #expect(fork.nextDeadline == F.at(30))
        #expect(fork.record.branches.map(\.reason) == ["registered", "registered"])
        #expect(fork.record.pushes.map(\.verb) == ["NotifyIncomingCall", "NotifyIncomingCall"])
    }

    @Test func startWithOneContactPerDevice() {
        let (_, actions) = F.started(bindings: [F.binding("a", instance: "<urn:uuid:1>"), F.binding("b", instance: "<urn:uuid:1>")],
                                     targets: [])
        #expect(actions.forks.count == 1)
    }

    @Test func startWithNoDevicesAnswers480AtOnce() {
        let (fork, actions) = F.started(bindings: [], targets: [])
        #expect(actions == [.respond(status: 480)])
        #expect(fork.record.outcome == .noDevices)
        #expect(fork.isFinished)
    }

    @Test func startWithHoldOffIgnoresTuples() {
        let (fork, actions) = F.started(bindings: [], targets: [F.target(1)], wakeupHold: false)
        #expect(actions.pushes.isEmpty)
        #expect(actions.responses == [480])
        #expect(fork.record.outcome == .noDevices)
    }

    @Test func startWithTuplesOnlyWaitsForRegistration() {
        let (fork, actions) = F.started(bindings: [], targets: [F.target(1)])
        #expect(actions.pushes.count == 1)
        #expect(actions.responses.isEmpty)
        #expect(fork.phase == .live)
    }

    @Test func ringbackOnPushSends180Once() {
        let (_, actions) = F.started(bindings: [], targets: [F.target(1), F.target(2)],
                                     settings: ForkSettings(ringbackOnPush: true))
        #expect(actions.filter { $0 == .ringback }.count == 1)
        let (_, quiet) = F.started(bindings: [], targets: [F.target(1)])
        #expect(!quiet.contains(.ringback))
    }

    @Test func tupleWithoutTokenGetsNoPushAndCallFailsFast() {
        let empty = PushTarget(tupleID: 9, selector: "s", callsAppID: nil, callsToken: nil, otherAppID: nil, otherToken: nil)
        let (fork, actions) = F.started(bindings: [], targets: [empty])
        #expect(actions.pushes.isEmpty)
        #expect(actions.responses == [480])
        #expect(fork.record.outcome == .unreachable)
    }

    // MARK: Tuples read after the start

    @Test func branchesGoOutBeforeTheTuplesAreRead() {
        var (fork, actions) = F.started(bindings: [F.binding("a")], targets: nil)
        #expect(actions.forks.count == 1)
        #expect(actions.pushes.isEmpty)
        let later = fork.handle(.tuplesLoaded([F.target(1)]), now: F.at(0.001))
        #expect(later.pushes.map(\.1.tupleID) == [1])
        #expect(later.forks.isEmpty)
    }

    @Test func noContactAndNoTupleIsKnownOnlyOnceTheTuplesAreRead() {
        var (fork, actions) = F.started(bindings: [], targets: nil)
        #expect(actions.isEmpty)
        #expect(fork.phase == .live)
        #expect(fork.handle(.tuplesLoaded([]), now: F.at(0.001)) == [.respond(status: 480)])
        #expect(fork.record.outcome == .noDevices)
    }

    @Test func aFailedBranchWaitsForTheTuples() {
        var (fork, _) = F.started(bindings: [F.binding("a")], targets: nil)
        #expect(fork.handle(.final(1, status: 486), now: F.at(0.001)).isEmpty)
        // No tuple after all: nothing left to wait for.
        #expect(fork.handle(.tuplesLoaded([]), now: F.at(0.002)).relayedFinals.map(\.1) == [486])
    }

    @Test func aCallDecidedBeforeTheTuplesPushesNobody() {
        var (fork, _) = F.started(bindings: [F.binding("a")], targets: nil)
        _ = fork.handle(.final(1, status: 200), now: F.at(0.001))
        #expect(fork.handle(.tuplesLoaded([F.target(1)]), now: F.at(0.002)).isEmpty)
    }

    // MARK: Provisional and answer

    @Test func provisionalIsRelayedAndRecorded() {
        var (fork, _) = F.started(bindings: [F.binding("a")], targets: [])
        #expect(fork.handle(.provisional(1, status: 100), now: F.at(0.1)).isEmpty)
        let actions = fork.handle(.provisional(1, status: 180), now: F.at(0.2))
        #expect(actions == [.relayProvisional(1, status: 180)])
        #expect(fork.record.branches[0].provisionalStatus == 180)
        #expect(fork.record.branches[0].provisionalAt == F.at(0.2))
    }

    @Test func answerRelays2xxCancelsOthersAndNotifiesOtherDevices() {
        let a = F.binding("a", token: "tok-1")
        var (fork, _) = F.started(bindings: [a, F.binding("b")], targets: [F.target(1), F.target(2)])
        let actions = fork.handle(.final(1, status: 200), now: F.at(1))
        #expect(actions.relayedFinals.map(\.1) == [200])
        #expect(actions.stops.map(\.0) == [2])
        #expect(actions.stops.map(\.1) == [.answeredElsewhere])
        // The answering device (pn-prid=tok-1) is left out.
        #expect(actions.pushes.map(\.1.tupleID) == [2])
        #expect(actions.pushes.map(\.2) == [.answeredElsewhere])
        #expect(actions.messages.isEmpty)
        #expect(fork.record.outcome == .answered)
        #expect(fork.record.finalStatus == 200)
        #expect(fork.record.answeredBy == a.contact)
        #expect(fork.phase == .ended)
    }

    @Test func aSecond2xxIsRelayedToo() {
        var (fork, _) = F.started(bindings: [F.binding("a"), F.binding("b")], targets: [])
        _ = fork.handle(.provisional(2, status: 180), now: F.at(0.5))
        _ = fork.handle(.final(1, status: 200), now: F.at(1))
        #expect(fork.handle(.final(2, status: 200), now: F.at(1.1)) == [.relayFinal(2, status: 200)])
        #expect(fork.handle(.final(1, status: 200), now: F.at(1.2)) == [.relayFinal(1, status: 200)])
    }

    @Test func declineEndsTheCallEverywhere() {
        let a = F.binding("a", token: "tok-1")
        var (fork, _) = F.started(bindings: [a, F.binding("b")], targets: [F.target(1), F.target(2)])
        let actions = fork.handle(.final(1, status: 603), now: F.at(2))
        #expect(actions.relayedFinals.map(\.1) == [603])
        #expect(actions.stops.map(\.1) == [.declined])
        #expect(actions.pushes.map(\.1.tupleID) == [2])
        #expect(actions.pushes.map(\.2) == [.missed])
        #expect(actions.messages.map(\.contact) == [F.binding("b").contact])
        #expect(fork.record.outcome == .declined)
        #expect(fork.record.finalStatus == 603)
    }

    // MARK: Unreachable devices

    @Test func unreachableBranchWaitsWhileAPushedDeviceMayRegister() {
        var (fork, _) = F.started(bindings: [F.binding("a")], targets: [F.target(1)])
        #expect(fork.handle(.final(1, status: 480), now: F.at(1)).isEmpty)
        #expect(fork.phase == .live)
    }

    @Test func allBranchesFailedAndNoTupleAnswersBestAtOnce() {
        var (fork, _) = F.started(bindings: [F.binding("a"), F.binding("b")], targets: [])
        #expect(fork.handle(.final(1, status: 408), now: F.at(1)).isEmpty)
        let actions = fork.handle(.final(2, status: 486), now: F.at(1))
        #expect(actions.relayedFinals.map(\.0) == [2])
        #expect(actions.relayedFinals.map(\.1) == [486])
        #expect(fork.record.outcome == .unreachable)
    }

    @Test func onlySofiaTimeoutsBecome480AndA503Becomes500() {
        var (fork, _) = F.started(bindings: [F.binding("a")], targets: [])
        #expect(fork.handle(.final(1, status: 408), now: F.at(1)).responses == [480])
        var (other, _) = F.started(bindings: [F.binding("a")], targets: [])
        #expect(other.handle(.final(1, status: 503), now: F.at(1)).responses == [500])
    }

    @Test func failedPushesMeanNothingToWaitFor() {
        var (fork, _) = F.started(bindings: [F.binding("a")], targets: [F.target(1)])
        _ = fork.handle(.final(1, status: 480), now: F.at(1))
        let actions = fork.handle(.pushResult(1, .failed(status: 400, detail: "bad request")), now: F.at(1.1))
        #expect(actions.relayedFinals.map(\.1) == [480])
        #expect(fork.record.outcome == .unreachable)
    }

    // MARK: Late forking

    @Test func newContactDuringTheCallIsForkedAtOnce() {
        var (fork, _) = F.started(bindings: [], targets: [F.target(1)])
        let actions = fork.handle(.bindingAdded(F.binding("a")), now: F.at(1.5))
        #expect(actions.forks.map(\.1.contact) == [F.binding("a").contact])
        #expect(fork.record.branches.last?.reason == "late-register")
        // And the next device too.
        let more = fork.handle(.bindingAdded(F.binding("b")), now: F.at(2))
        #expect(more.forks.count == 1)
    }

    @Test func holdOffMeansNoLateForking() {
        var (fork, _) = F.started(bindings: [F.binding("a")], targets: [], wakeupHold: false)
        #expect(fork.handle(.bindingAdded(F.binding("b")), now: F.at(1)).forks.isEmpty)
    }

    @Test func reRegisterWithoutProvisionalGetsANewBranchAndRetiresTheOld() {
        let a = F.binding("a")
        var (fork, _) = F.started(bindings: [a], targets: [F.target(1)])
        var refreshed = a
        refreshed.cseq = 2
        let actions = fork.handle(.bindingRefreshed(old: a, new: refreshed), now: F.at(2))
        // Nothing came back on branch 1: its INVITE is stopped, not cancelled.
        #expect(actions.cancels.isEmpty)
        #expect(actions.retires.map(\.0) == [1])
        #expect(actions.retires.map(\.1) == [.replaced])
        #expect(actions.forks.map(\.0) == [2])
        #expect(fork.record.branches.last?.reason == "re-register")
        #expect(fork.record.branches[0].cancelled == "replaced")
        #expect(fork.record.branches[0].finalReason == CallFork.retiredReason(.replaced))
        #expect(fork.record.branches[0].endedAt == F.at(2))
    }

    @Test func reRegisterAfterA100TryingCancelsTheOldBranch() {
        let a = F.binding("a")
        var (fork, _) = F.started(bindings: [a], targets: [F.target(1)])
        #expect(fork.handle(.provisional(1, status: 100), now: F.at(1)).isEmpty)
        let actions = fork.handle(.bindingRefreshed(old: a, new: a), now: F.at(2))
        // The device has the INVITE: a CANCEL can go at once.
        #expect(actions.cancels.map(\.0) == [1])
        #expect(actions.retires.isEmpty)
        #expect(actions.forks.map(\.0) == [2])
        #expect(fork.record.branches[0].finalReason == nil)
    }

    @Test func aStoppedBranchThatRingsLaterIsRecordedAndNotRelayed() {
        let a = F.binding("a")
        var (fork, _) = F.started(bindings: [a], targets: [F.target(1)])
        _ = fork.handle(.bindingRefreshed(old: a, new: a), now: F.at(2))
        // The proxy sends its CANCEL; the caller hears nothing of it.
        #expect(fork.handle(.provisional(1, status: 180), now: F.at(3)).isEmpty)
        #expect(fork.record.branches[0].provisionalStatus == 180)
        #expect(fork.handle(.final(1, status: 487), now: F.at(3.1)).isEmpty)
        #expect(fork.record.branches[0].finalStatus == 487)
        #expect(fork.record.branches[0].finalReason == nil, "the device's own answer replaces the reason")
        #expect(fork.phase == .live)
    }

    @Test func aStoppedBranchThatAnswersStillAnswersTheCall() {
        let a = F.binding("a")
        var (fork, _) = F.started(bindings: [a], targets: [F.target(1)])
        _ = fork.handle(.bindingRefreshed(old: a, new: a), now: F.at(2))
        let actions = fork.handle(.final(1, status: 200), now: F.at(3))
        #expect(actions.relayedFinals.map(\.0) == [1])
        #expect(actions.retires.map(\.0) == [2], "the device's newer INVITE stops")
        #expect(fork.record.outcome == .answered)
    }

    @Test func aDeclineOnAReplacedBranchDoesNotDecideTheCall() {
        let a = F.binding("a")
        var (fork, _) = F.started(bindings: [a], targets: [F.target(1)])
        _ = fork.handle(.bindingRefreshed(old: a, new: a), now: F.at(2))
        #expect(fork.handle(.final(1, status: 603), now: F.at(3)).relayedFinals.isEmpty)
        #expect(fork.phase == .live)
    }

    @Test func anEndedCallWithOnlySilentBranchesFinishesWithoutWaiting() {
        var (fork, _) = F.started(bindings: [F.binding("a"), F.binding("b")], targets: [])
        _ = fork.handle(.final(1, status: 200), now: F.at(1))
        // Branch 2 never answered: stopped, nothing to wait for.
        #expect(fork.isFinished)
        #expect(fork.record.branches[1].finalReason == CallFork.retiredReason(.answeredElsewhere))
        #expect(fork.record.branches[1].endedAt == F.at(1))
    }

    @Test func reRegisterOfARingingDeviceChangesNothing() {
        let a = F.binding("a")
        var (fork, _) = F.started(bindings: [a], targets: [])
        _ = fork.handle(.provisional(1, status: 180), now: F.at(1))
        #expect(fork.handle(.bindingRefreshed(old: a, new: a), now: F.at(2)).isEmpty)
    }

    @Test func reRegisterAfterASilentFailureForksAgain() {
        let a = F.binding("a")
        var (fork, _) = F.started(bindings: [a], targets: [F.target(1)])
        _ = fork.handle(.final(1, status: 408), now: F.at(1))
        let actions = fork.handle(.bindingRefreshed(old: a, new: a), now: F.at(2))
        #expect(actions.forks.count == 1)
        #expect(actions.cancels.isEmpty)
    }

    @Test func neverTwoLiveBranchesToOneDevice() {
        let a = F.binding("a", instance: "<urn:uuid:dev>")
        var (fork, _) = F.started(bindings: [], targets: [F.target(1)])
        var live: Set<BranchID> = []
        var events: [ForkEvent] = [.bindingAdded(a), .bindingRefreshed(old: a, new: a), .bindingRefreshed(old: a, new: a)]
        // The same device under a new contact URI (Wi-Fi to LTE).
        events.append(.bindingAdded(F.binding("a-lte", instance: "<urn:uuid:dev>")))
        for (n, event) in events.enumerated() {
            for action in fork.handle(event, now: F.at(Double(n + 1))) {
                if case .fork(let id, _) = action { live.insert(id) }
                if case .cancel(let id, _) = action { live.remove(id) }
                if case .retire(let id, _) = action { live.remove(id) }
            }
            #expect(live.count == 1)
        }
    }

    @Test func removedContactWithoutProvisionalIsCancelled() {
        let a = F.binding("a")
        var (fork, _) = F.started(bindings: [a, F.binding("b")], targets: [])
        let actions = fork.handle(.bindingRemoved(a), now: F.at(1))
        #expect(actions.retires.map(\.1) == [.unregistered])
        #expect(actions.responses.isEmpty)
    }

    // MARK: Caller cancel

    @Test func callerCancelSends487AndMissedNotifications() {
        var (fork, _) = F.started(bindings: [F.binding("a")], targets: [F.target(1)])
        let actions = fork.handle(.callerCancelled(answeredElsewhere: false), now: F.at(3))
        #expect(actions.retires.map(\.1) == [.callerCancelled])
        #expect(actions.responses == [487])
        #expect(actions.pushes.map(\.2) == [.missed])
        #expect(actions.messages.map(\.contact) == [F.binding("a").contact])
        #expect(fork.record.outcome == .cancelled)
    }

    @Test func aKindTheAppSwitchedOffIsNotPushedAndTheRecordSaysSo() {
        var off = F.target(1)
        off.switchedOff = [.missed]
        var (fork, _) = F.started(bindings: [], targets: [off, F.target(2)])
        let actions = fork.handle(.callerCancelled(answeredElsewhere: false), now: F.at(3))
        #expect(actions.pushes.map(\.1.tupleID) == [2])
        #expect(actions.pushes.map(\.2) == [.missed])
        #expect(fork.record.pushes.filter { $0.verb == PushEvent.missed.recordName }.map(\.tupleID) == [2],
                "no failed push is recorded for the switched-off device")
        #expect(fork.record.events.contains {
            $0.event == "push switched off" && $0.detail == "verb=NotifyIncomingCallMissed selector=sel1"
        })
    }

    @Test func callerCancelAnsweredElsewhereSendsAnsweredElsewhere() {
        var (fork, _) = F.started(bindings: [F.binding("a")], targets: [F.target(1)])
        let actions = fork.handle(.callerCancelled(answeredElsewhere: true), now: F.at(3))
        #expect(actions.responses == [487])
        #expect(actions.pushes.map(\.2) == [.answeredElsewhere])
        #expect(actions.messages.isEmpty)
        #expect(fork.record.outcome == .answeredElsewhere)
    }

    @Test func callerCancelBeforeTheDevicesAreKnown() {
        var fork = F.fork()
        #expect(fork.handle(.callerCancelled(answeredElsewhere: false), now: F.at(0.01)) == [.respond(status: 487)])
        #expect(fork.isFinished)
        #expect(fork.handle(.start(bindings: [F.binding("a")], targets: [], wakeupHold: true), now: F.at(0.02)).isEmpty)
    }

    // MARK: Window

    @Test func nothingToRingOrWakeAnswersTheConfiguredStatusAtOnce() {
        let (fork, actions) = F.started(bindings: [], targets: [], settings: ForkSettings(timeoutStatus: 486))
        #expect(actions.responses == [486])
        #expect(fork.record.outcome == .noDevices)
        var (gone, _) = F.started(bindings: [], targets: [F.target(1)], settings: ForkSettings(timeoutStatus: 486))
        #expect(gone.handle(.pushResult(1, .tokenGone(status: 410, detail: nil)), now: F.at(0.1)).responses == [486])
    }

    @Test func windowClosingCancelsAndAnswersTheConfiguredStatus() {
        var (fork, _) = F.started(bindings: [F.binding("a")], targets: [F.target(1)],
                                  settings: ForkSettings(wakeWindow: 10, timeoutStatus: 408))
        #expect(fork.handle(.timer, now: F.at(9.9)).isEmpty)
        let actions = fork.handle(.timer, now: F.at(10))
        #expect(actions.retires.map(\.1) == [.noAnswer])
        #expect(actions.responses == [408])
        #expect(actions.pushes.map(\.2) == [.missed])
        #expect(fork.record.outcome == .noAnswer)
    }

    @Test func windowClosingAnswers480ByDefault() {
        var (fork, _) = F.started(bindings: [], targets: [F.target(1)])
        #expect(fork.handle(.timer, now: F.at(30)).responses == [480])
    }

    // MARK: Pushes

    @Test func staleTokenDeletesTheTuple() {
        var (fork, _) = F.started(bindings: [F.binding("a")], targets: [F.target(1)])
        let actions = fork.handle(.pushResult(1, .tokenGone(status: 404, detail: "NotRegistered")), now: F.at(0.3))
        #expect(actions.contains(.deleteTuple(1)))
        #expect(fork.record.pushes[0].result == "token-gone")
        #expect(fork.record.pushes[0].httpStatus == 404)
        // Nothing is left to wait for once the only contact fails.
        #expect(fork.handle(.final(1, status: 480), now: F.at(1)).relayedFinals.map(\.1) == [480])
    }

    @Test func aFinalSipwakeMadeItselfKeepsItsReasonAndCountsAsAFinal() {
        var (fork, _) = F.started(bindings: [F.binding("a")], targets: [])
        let actions = fork.handle(.localFinal(1, status: 503, reason: "not sent: the device's connection is gone"),
                                  now: F.at(0.1))
        #expect(fork.record.branches[0].finalStatus == 503)
        #expect(fork.record.branches[0].finalReason == "not sent: the device's connection is gone")
        #expect(!actions.responses.isEmpty || !actions.relayedFinals.isEmpty, "the only branch failed: the call is answered")
        var (answered, _) = F.started(bindings: [F.binding("a")], targets: [])
        _ = answered.handle(.final(1, status: 486), now: F.at(0.1))
        #expect(answered.record.branches[0].finalReason == nil, "the device's own answer has no reason")
    }

    @Test func aStaleTokenCallEndsOnceInItsStory() {
        var (fork, _) = F.started(bindings: [], targets: [F.target(1)])
        _ = fork.handle(.pushResult(1, .tokenGone(status: 410, detail: "Unregistered")), now: F.at(0.2))
        _ = fork.handle(.timer, now: F.at(1))
        _ = fork.handle(.timer, now: F.at(40))
        #expect(fork.record.outcome == .unreachable || fork.record.outcome == .noDevices)
        #expect(fork.record.events.filter { $0.event == "call ended" }.count == 1, "\(fork.record.events)")
    }

    @Test func retryableIsRetriedOnceWhileLive() {
        var (fork, _) = F.started(bindings: [], targets: [F.target(1)])
        let first = fork.handle(.pushResult(1, .retryable(status: 503, detail: nil)), now: F.at(0.5))
        #expect(first.pushes.map(\.0) == [2])
        #expect(fork.record.pushes[1].attempt == 2)
        let second = fork.handle(.pushResult(2, .retryable(status: nil, detail: "timeout")), now: F.at(5.5))
        #expect(second.pushes.isEmpty)
        // No contact and no device left to wake: 480 at once, not at the window's end.
        #expect(second.responses == [480])
    }

    @Test func aRetryAfterDelaysTheRetryWithinTheWakeWindow() {
        var (fork, _) = F.started(bindings: [], targets: [F.target(1)])
        let answered = fork.handle(.pushResult(1, .retryable(status: 503, detail: nil, retryAfter: 4)), now: F.at(0.5))
        #expect(answered.pushes.isEmpty, "not at once: the provider asked for 4 s")
        #expect(answered.responses.isEmpty, "the device may still be woken: the call waits")
        #expect(fork.nextDeadline == F.at(4.5))
        #expect(fork.handle(.timer, now: F.at(3)).pushes.isEmpty)
        let retried = fork.handle(.timer, now: F.at(4.5))
        #expect(retried.pushes.map(\.0) == [2])
        #expect(fork.record.pushes[1].attempt == 2)
        #expect(fork.nextDeadline == F.at(ForkSettings().wakeWindow))
    }

    @Test func aRetryAfterPastTheWakeWindowIsNotRetried() {
        var (fork, _) = F.started(bindings: [], targets: [F.target(1)])
        let answered = fork.handle(
            .pushResult(1, .retryable(status: 429, detail: nil, retryAfter: ForkSettings().wakeWindow + 60)), now: F.at(0.5))
        #expect(answered.pushes.isEmpty)
        // No contact and nothing left to wake: the call ends now.
        #expect(answered.responses == [480])
        #expect(fork.record.events.contains { $0.event == "push not retried" })
    }

    @Test func aDelayedRetryIsDroppedWhenTheCallEnds() {
        var (fork, _) = F.started(bindings: [F.binding("a")], targets: [F.target(1)])
        _ = fork.handle(.pushResult(1, .retryable(status: 503, detail: nil, retryAfter: 2)), now: F.at(0.5))
        _ = fork.handle(.final(1, status: 200), now: F.at(1))
        #expect(fork.handle(.timer, now: F.at(2.5)).pushes.isEmpty)
    }

    @Test func noRetryAfterTheEnd() {
        var (fork, _) = F.started(bindings: [F.binding("a")], targets: [F.target(1)])
        _ = fork.handle(.final(1, status: 200), now: F.at(1))
        #expect(fork.handle(.pushResult(1, .retryable(status: 500, detail: nil)), now: F.at(1.1)).pushes.isEmpty)
    }

    @Test func deliveredPushIsRecorded() {
        var (fork, _) = F.started(bindings: [], targets: [F.target(1)])
        _ = fork.handle(.pushResult(1, .delivered(status: 200)), now: F.at(0.2))
        #expect(fork.record.pushes[0].result == "delivered")
        #expect(fork.record.pushes[0].completedAt == F.at(0.2))
    }

    // MARK: Grace period

    @Test func deviceRegisteringAfterTheEndGetsTheMissedCallMessageOnce() {
        var (fork, _) = F.started(bindings: [], targets: [F.target(1)], settings: ForkSettings(missedCallGrace: 15))
        _ = fork.handle(.callerCancelled(answeredElsewhere: false), now: F.at(2))
        let late = F.binding("late")
        #expect(fork.handle(.bindingAdded(late), now: F.at(3)).messages.map(\.contact) == [late.contact])
        #expect(fork.handle(.bindingRefreshed(old: late, new: late), now: F.at(4)).isEmpty)
        #expect(fork.nextDeadline == F.at(17))
        _ = fork.handle(.timer, now: F.at(16.9))
        #expect(!fork.isFinished)
        _ = fork.handle(.timer, now: F.at(17))
        #expect(fork.isFinished)
        #expect(fork.handle(.bindingAdded(F.binding("later")), now: F.at(18)).isEmpty)
    }

    @Test func answeringOrRingingDevicesGetNoGraceMessage() {
        let a = F.binding("a"), b = F.binding("b")
        var (fork, _) = F.started(bindings: [a, b], targets: [F.target(1)])
        _ = fork.handle(.provisional(2, status: 180), now: F.at(1))
        _ = fork.handle(.final(1, status: 200), now: F.at(2))
        #expect(fork.handle(.bindingRefreshed(old: a, new: a), now: F.at(3)).messages.isEmpty)
        #expect(fork.handle(.bindingRefreshed(old: b, new: b), now: F.at(3)).messages.isEmpty)
        #expect(fork.handle(.bindingAdded(F.binding("c")), now: F.at(3)).messages.count == 1)
    }

    @Test func callWithoutPushesFinishesWhenItsBranchesAreDone() {
        var (fork, _) = F.started(bindings: [F.binding("a")], targets: [])
        _ = fork.handle(.final(1, status: 200), now: F.at(1))
        #expect(fork.isFinished)
        var (two, _) = F.started(bindings: [F.binding("a"), F.binding("b")], targets: [])
        _ = two.handle(.provisional(2, status: 180), now: F.at(0.5))
        _ = two.handle(.final(1, status: 200), now: F.at(1))
        // The cancelled branch still owes its final response.
        #expect(two.phase == .ended)
        #expect(two.nextDeadline == F.at(1 + CallFork.branchDrain))
        _ = two.handle(.final(2, status: 487), now: F.at(1.2))
        #expect(two.isFinished)
    }

    @Test func cancelledBranchThatNeverAnswersIsDroppedAfterTheDrain() {
        var (fork, _) = F.started(bindings: [F.binding("a"), F.binding("b")], targets: [])
        _ = fork.handle(.provisional(2, status: 180), now: F.at(0.5))
        _ = fork.handle(.final(1, status: 200), now: F.at(1))
        _ = fork.handle(.timer, now: F.at(20))
        #expect(fork.phase == .ended)
        _ = fork.handle(.timer, now: F.at(1 + CallFork.branchDrain))
        #expect(fork.isFinished)
    }

    // MARK: End notification setting

    @Test func pushOnlySendsNoMessage() {
        var (fork, _) = F.started(bindings: [F.binding("a")], targets: [F.target(1)],
                                  settings: ForkSettings(endNotification: .push))
        let actions = fork.handle(.callerCancelled(answeredElsewhere: false), now: F.at(1))
        #expect(actions.messages.isEmpty)
        #expect(actions.pushes.count == 1)
    }

    @Test func messageOnlySendsNoMissedPush() {
        var (fork, _) = F.started(bindings: [F.binding("a")], targets: [F.target(1)],
                                  settings: ForkSettings(endNotification: .message))
        let actions = fork.handle(.callerCancelled(answeredElsewhere: false), now: F.at(1))
        #expect(actions.messages.count == 1)
        #expect(actions.pushes.isEmpty)
    }

    // MARK: After the end

    @Test func lateAnswerAfterCancelIsRecordedNotRelayed() {
        var (fork, _) = F.started(bindings: [F.binding("a")], targets: [F.target(1)])
        _ = fork.handle(.callerCancelled(answeredElsewhere: false), now: F.at(1))
        #expect(fork.handle(.final(1, status: 200), now: F.at(1.1)).isEmpty)
        #expect(fork.record.events.contains { $0.event == "late answer after the call ended" })
    }

    @Test func recordTellsTheWholeStory() {
        var (fork, _) = F.started(bindings: [], targets: [F.target(1)])
        _ = fork.handle(.pushResult(1, .delivered(status: 200)), now: F.at(0.2))
        _ = fork.handle(.bindingAdded(F.binding("a")), now: F.at(1.5))
        _ = fork.handle(.provisional(1, status: 180), now: F.at(1.7))
        _ = fork.handle(.final(1, status: 200), now: F.at(4))
        let record = fork.record
        #expect(record.pairingID == "pair-1")
        #expect(record.callee == "alice")
        #expect(record.caller == "sip:bob@pbx.example")
        #expect(record.endedAt == F.at(4))
        #expect(record.branches.count == 1)
        #expect(record.branches[0].finalStatus == 200)
        let names = record.events.map(\.event)
        for expected in ["invite received", "push sent", "push answered", "contact registered", "branch sent",
                         "branch ringing", "branch final", "call ended"] {
            #expect(names.contains(expected), "missing \(expected)")
        }
    }
}
