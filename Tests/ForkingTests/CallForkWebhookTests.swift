import Forking
import Foundation
import Model
import Testing

/// The webhook rows of the transition table in docs/forking.md: the
/// customer's backend as one more push target of a call, whose 2xx holds
/// the call, whose 404 ("no device for this user") ends the wait without
/// deleting anything, and whose failures are retried once.
@Suite struct CallForkWebhookTests {
    typealias F = ForkFixture

    static let backend = PushTarget.webhook(account: "example.com")

    @Test func aUserWithNoContactAndNoTupleIsHeldForTheWebhook() {
        let (fork, actions) = F.started(bindings: [], targets: [Self.backend])
        #expect(actions.pushes.map(\.1) == [Self.backend])
        #expect(actions.pushes.map(\.2) == [.incomingCall])
        #expect(actions.responses.isEmpty, "the call waits for the backend's answer")
        #expect(fork.phase == .live)
        #expect(fork.record.pushes.map(\.verb) == ["call.mobile_push_wakeup"])
        #expect(fork.record.pushes.map(\.selector) == ["webhook"])
        #expect(fork.record.pushes.map(\.tupleID) == [PushTarget.webhookTupleID])
        #expect(fork.record.events.contains { $0.event == "webhook sent" })
    }

    @Test func theWebhookGoesWithTheTuplesAndNeverDelaysTheBranches() {
        var (fork, actions) = F.started(bindings: [F.binding("a")], targets: nil)
        #expect(actions.forks.count == 1)
        #expect(actions.pushes.isEmpty)
        let later = fork.handle(.tuplesLoaded([F.target(1), Self.backend]), now: F.at(0.01))
        #expect(later.pushes.map(\.1.tupleID) == [1, PushTarget.webhookTupleID])
    }

    @Test func a2xxHoldsTheCallAndTheLateDeviceIsForked() {
        var (fork, _) = F.started(bindings: [], targets: [Self.backend])
        let answered = fork.handle(.pushResult(1, .delivered(status: 202)), now: F.at(0.3))
        #expect(answered.responses.isEmpty)
        #expect(fork.record.pushes[0].result == "delivered")
        #expect(fork.record.pushes[0].httpStatus == 202)
        #expect(fork.nextDeadline == F.at(30))
        let registered = fork.handle(.bindingAdded(F.binding("phone")), now: F.at(4))
        #expect(registered.forks.map(\.1.contact) == [F.binding("phone").contact])
        let ended = fork.handle(.final(1, status: 200), now: F.at(6))
        #expect(ended.relayedFinals.map(\.1) == [200])
        // The backend hears that the call was taken: its other devices can stop ringing.
        #expect(ended.pushes.map(\.2) == [.answeredElsewhere])
        #expect(ended.pushes.map(\.1) == [Self.backend])
        #expect(fork.record.pushes.last?.verb == "call.answered_elsewhere")
    }

    @Test func a404EndsTheWaitAtOnceAndDeletesNothing() {
        var (fork, _) = F.started(bindings: [], targets: [Self.backend], settings: ForkSettings(wakeWindow: 20))
        let actions = fork.handle(.pushResult(1, .tokenGone(status: 404, detail: "no device for this user")), now: F.at(0.2))
        #expect(actions.responses == [480], "the PBX routes on now, not after the wake window")
        #expect(!actions.contains { if case .deleteTuple = $0 { return true } else { return false } })
        #expect(actions.pushes.isEmpty, "a backend without devices gets no missed event")
        #expect(fork.record.outcome == .noDevices)
        #expect(fork.record.pushes[0].result == "token-gone")
        #expect(fork.record.events.contains { $0.event == "webhook: no device for the user" })
    }

    @Test func a404AnswersTheConfiguredTimeoutStatus() {
        var (fork, _) = F.started(bindings: [], targets: [Self.backend], settings: ForkSettings(timeoutStatus: 408))
        #expect(fork.handle(.pushResult(1, .tokenGone(status: 404, detail: nil)), now: F.at(0.2)).responses == [408])
    }

    @Test func a404StillWaitsForADeviceTupleThatWasWoken() {
        var (fork, _) = F.started(bindings: [], targets: [F.target(1), Self.backend])
        _ = fork.handle(.pushResult(1, .delivered(status: 200)), now: F.at(0.1))
        let actions = fork.handle(.pushResult(2, .tokenGone(status: 404, detail: nil)), now: F.at(0.2))
        #expect(actions.responses.isEmpty)
        #expect(fork.phase == .live)
    }

    @Test func a404WithARingingContactLetsTheContactDecide() {
        var (fork, _) = F.started(bindings: [F.binding("a")], targets: [Self.backend])
        #expect(fork.handle(.pushResult(1, .tokenGone(status: 404, detail: nil)), now: F.at(0.2)).responses.isEmpty)
        #expect(fork.handle(.final(1, status: 486), now: F.at(2)).relayedFinals.map(\.1) == [486])
    }

    @Test func a5xxOrATimeoutIsRetriedOnceThenCountsAsAFailedPush() {
        var (fork, _) = F.started(bindings: [], targets: [Self.backend])
        let first = fork.handle(.pushResult(1, .retryable(status: 500, detail: nil)), now: F.at(0.2))
        #expect(first.pushes.map(\.1) == [Self.backend])
        #expect(first.responses.isEmpty)
        #expect(fork.record.pushes.map(\.attempt) == [1, 2])
        #expect(fork.record.pushes.map(\.verb) == ["call.mobile_push_wakeup", "call.mobile_push_wakeup"])
        let second = fork.handle(.pushResult(2, .retryable(status: nil, detail: "timeout: 5000 ms")), now: F.at(5.3))
        #expect(second.pushes.isEmpty)
        #expect(second.responses == [480], "nothing registered and nothing left to wake")
        #expect(fork.record.outcome == .unreachable)
    }

    @Test func aCallerCancelIsACancelledEventForTheBackend() {
        var (fork, _) = F.started(bindings: [], targets: [Self.backend])
        _ = fork.handle(.pushResult(1, .delivered(status: 200)), now: F.at(0.2))
        let actions = fork.handle(.callerCancelled(answeredElsewhere: false), now: F.at(3))
        #expect(actions.responses == [487])
        #expect(actions.pushes.map(\.2) == [.missed])
        #expect(fork.record.pushes.last?.verb == "call.cancelled")
    }

    @Test func theWindowClosingIsAMissedEventForTheBackend() {
        var (fork, _) = F.started(bindings: [], targets: [Self.backend])
        _ = fork.handle(.pushResult(1, .delivered(status: 200)), now: F.at(0.2))
        let actions = fork.handle(.timer, now: F.at(30))
        #expect(actions.responses == [480])
        #expect(actions.pushes.map(\.1) == [Self.backend])
        #expect(fork.record.pushes.last?.verb == "call.missed")
    }

    @Test func theBackendIsNoDeviceOfAnyContact() {
        let binding = F.binding("a", token: "example.com")
        #expect(!Self.backend.isDevice(of: binding, contactToken: "example.com"))
        #expect(Self.backend.isWebhook)
        #expect(Self.backend.canReceive(.missed) && Self.backend.canReceive(.answeredElsewhere))
    }

    @Test func theWebhookTypeFollowsTheEventAndTheOutcome() {
        #expect(CallWebhookType(event: .incomingCall, outcome: nil) == .wakeup)
        #expect(CallWebhookType(event: .missed, outcome: .noAnswer) == .missed)
        #expect(CallWebhookType(event: .missed, outcome: .cancelled) == .cancelled)
        #expect(CallWebhookType(event: .missed, outcome: .interrupted) == .missed)
        #expect(CallWebhookType(event: .answeredElsewhere, outcome: .answered) == .answeredElsewhere)
    }

    @Test func aBindingRefreshHasNoWebhookType() {
        // It concerns no call: the backend has no event for it.
        #expect(CallWebhookType(event: .bindingRefresh, outcome: nil) == nil)
    }
}
