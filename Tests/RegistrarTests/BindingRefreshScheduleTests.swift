import Foundation
import Registrar
import Testing

/// When the RFC 8599 binding-refresh pushes go out, and when they stop.
@Suite struct BindingRefreshScheduleTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    let alice = BindingRefreshKey(aor: "alice", selector: "<urn:uuid:1>")
    var purrs = 0

    func at(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }

    @Test func pushesStartBeforeExpiryAndAreRetriedEvenlyUntilThePhoneReregisters() {
        var schedule = BindingRefreshSchedule(before: 120, retries: 2)
        let purr = schedule.registered(alice, expiresAt: at(3600), now: t0) { "purr-1" }
        #expect(purr == "purr-1")
        #expect(schedule.tick(now: at(3479)).isEmpty)
        #expect(schedule.tick(now: at(3480)) == [.push(alice, purr: "purr-1", attempt: 1)])
        #expect(schedule.tick(now: at(3481)).isEmpty, "one push per due time")
        #expect(schedule.tick(now: at(3520)) == [.push(alice, purr: "purr-1", attempt: 2)])
        #expect(schedule.tick(now: at(3560)) == [.push(alice, purr: "purr-1", attempt: 3)])
        #expect(schedule.tick(now: at(3599)).isEmpty, "two retries, then no more")
        #expect(schedule.tick(now: at(3600)) == [.unanswered(alice, pushes: 3)])
        #expect(schedule.count == 0)
    }

    @Test func aReregistrationStopsTheRetriesAndKeepsThePURR() {
        var schedule = BindingRefreshSchedule(before: 120, retries: 2)
        schedule.registered(alice, expiresAt: at(3600), now: t0) { "purr-1" }
        #expect(schedule.tick(now: at(3480)).count == 1)
        let again = schedule.registered(alice, expiresAt: at(3490 + 3600), now: at(3490)) { "purr-2" }
        #expect(again == "purr-1", "the device keeps its PRID-URR")
        #expect(schedule.device(withPURR: "purr-1", of: "alice") == alice)
        #expect(schedule.device(withPURR: "purr-1", of: "mallory") == nil, "another user's PRID-URR names nothing")
        #expect(schedule.tick(now: at(3520)).isEmpty)
        #expect(schedule.tick(now: at(3600)).isEmpty, "the old expiry no longer counts")
        #expect(schedule.dueAt(alice) == at(3490 + 3600 - 120))
    }

    @Test func aShortRegistrationIsRefreshedHalfwayThrough() {
        var schedule = BindingRefreshSchedule(before: 120, retries: 1)
        schedule.registered(alice, expiresAt: at(60), now: t0) { "p" }
        #expect(schedule.tick(now: at(29)).isEmpty)
        #expect(schedule.tick(now: at(30)) == [.push(alice, purr: "p", attempt: 1)])
        #expect(schedule.tick(now: at(45)) == [.push(alice, purr: "p", attempt: 2)])
    }

    @Test func withNoLeadNothingIsEverPushedButThePURRIsKept() {
        var schedule = BindingRefreshSchedule(before: 0, retries: 2)
        #expect(schedule.registered(alice, expiresAt: at(60), now: t0) { "p" } == "p")
        #expect(schedule.dueAt(alice) == nil)
        #expect(schedule.tick(now: at(59)).isEmpty)
        #expect(schedule.tick(now: at(60)) == [.expired(alice)], "nothing was sent, so nothing went unanswered")
        #expect(schedule.count == 0)
    }

    @Test func aLapsedBindingIsUnansweredOnlyWhenPushesWereSentAndARemovedOneIsForgotten() {
        var schedule = BindingRefreshSchedule(before: 120, retries: 0)
        let bob = BindingRefreshKey(aor: "bob", selector: "pn-prid:x")
        schedule.registered(alice, expiresAt: at(600), now: t0) { "a" }
        schedule.registered(bob, expiresAt: at(600), now: t0) { "b" }
        #expect(schedule.lapsed(alice) == .expired(alice))
        #expect(schedule.lapsed(alice) == nil, "forgotten")
        #expect(schedule.tick(now: at(480)) == [.push(bob, purr: "b", attempt: 1)])
        #expect(schedule.lapsed(bob) == .unanswered(bob, pushes: 1))
        schedule.registered(alice, expiresAt: at(600), now: t0) { "a" }
        schedule.removed(alice)
        #expect(schedule.tick(now: at(480)).isEmpty)
        #expect(schedule.count == 0)
    }

    @Test func aDeviceWithoutARefreshTokenIsKnownButNeverPushed() {
        var schedule = BindingRefreshSchedule(before: 120, retries: 2)
        let purr = schedule.registered(alice, expiresAt: at(3600), now: t0, pushes: false) { "p" }
        #expect(schedule.purr(of: alice) == purr)
        #expect(schedule.tick(now: at(3500)).isEmpty)
        #expect(schedule.tick(now: at(3600)) == [.expired(alice)])
    }

    @Test func theAdvertisedLeadIsBeforeOrHalfTheRegistration() {
        let schedule = BindingRefreshSchedule(before: 120, retries: 2)
        #expect(schedule.lead(expiresAt: at(3600), now: t0) == 120)
        #expect(schedule.lead(expiresAt: at(60), now: t0) == 30)
    }
}
