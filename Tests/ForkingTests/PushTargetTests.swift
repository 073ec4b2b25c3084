import Forking
import Model
import Testing

/// Which token each event's push goes to.
@Suite struct PushTargetTests {
    static func target(provider: String, callsToken: String?, otherToken: String?) -> PushTarget {
        PushTarget(tupleID: 1, provider: provider, selector: "sel", callsAppID: callsToken.map { _ in "com.example.phone" },
                   callsToken: callsToken, otherAppID: otherToken.map { _ in "com.example.phone" }, otherToken: otherToken)
    }

    @Test func eachEventUsesItsOwnPair() {
        let target = Self.target(provider: "apns", callsToken: "voip", otherToken: "alert")
        #expect(target.address(for: .incomingCall)?.token == "voip")
        #expect(target.address(for: .missed)?.token == "alert")
        #expect(target.address(for: .answeredElsewhere)?.token == "alert")
    }

    @Test func anAPNsVoIPTokenNeverCarriesEndOfCallNotices() {
        for target in [Self.target(provider: "apns", callsToken: "voip", otherToken: nil),
                       Self.target(provider: "apns", callsToken: "voip", otherToken: "voip")] {
            #expect(target.address(for: .incomingCall)?.token == "voip")
            #expect(target.address(for: .missed) == nil)
            #expect(target.address(for: .answeredElsewhere) == nil)
            #expect(!target.canReceive(.missed))
        }
    }

    @Test func aBindingRefreshGoesToTheOtherPair() {
        #expect(Self.target(provider: "apns", callsToken: "voip", otherToken: "alert").address(for: .bindingRefresh)?.token
            == "alert")
        #expect(Self.target(provider: "fcm", callsToken: "calls", otherToken: "other").address(for: .bindingRefresh)?.token
            == "other")
        #expect(Self.target(provider: "fcm", callsToken: "token", otherToken: nil).address(for: .bindingRefresh)?.token
            == "token")
    }

    @Test func anAPNsVoIPTokenNeverGetsABindingRefresh() {
        // Apple ends an app that gets a VoIP push without reporting a call.
        for target in [Self.target(provider: "apns", callsToken: "voip", otherToken: nil),
                       Self.target(provider: "apns", callsToken: "voip", otherToken: "voip")] {
            #expect(target.address(for: .bindingRefresh) == nil)
            #expect(!target.canReceive(.bindingRefresh))
        }
    }

    @Test func otherProvidersFallBackToTheOnlyPair() {
        for provider in ["acrobits", "fcm"] {
            let target = Self.target(provider: provider, callsToken: "token", otherToken: nil)
            #expect(target.address(for: .missed)?.token == "token")
            #expect(target.address(for: .incomingCall)?.token == "token")
        }
    }

    @Test func aSwitchedOffKindIsNeverPushedButTheOthersAre() {
        let target = Self.target(provider: "fcm", callsToken: "token", otherToken: "token")
            .withSwitches { $0 == "com.example.phone" ? [.missed] : [] }
        #expect(target.switchedOff == [.missed])
        #expect(target.isSwitchedOff(.missed))
        #expect(!target.canReceive(.missed))
        #expect(target.canReceive(.answeredElsewhere))
        #expect(target.canReceive(.incomingCall), "an incoming call is never switched off")
        #expect(target.address(for: .missed)?.token == "token", "the address stays: only the push is not made")
    }

    @Test func theSwitchesFollowTheAppOfTheOtherPair() {
        let target = PushTarget(tupleID: 1, provider: "apns", selector: "sel", callsAppID: "com.example.calls",
                                callsToken: "voip", otherAppID: "com.example.other", otherToken: "alert")
        #expect(target.withSwitches { $0 == "com.example.calls" ? [.missed, .answeredElsewhere] : [] }.switchedOff.isEmpty)
        #expect(target.withSwitches { $0 == "com.example.other" ? [.answeredElsewhere] : [] }.switchedOff
            == [.answeredElsewhere])
    }

    @Test func switchesDoNotGiveAVoIPTokenEndOfCallNotices() {
        // A device that gets no end-of-call push anyway is not "switched off": there is nothing to skip.
        let target = Self.target(provider: "apns", callsToken: "voip", otherToken: nil).withSwitches { _ in [.missed] }
        #expect(target.switchedOff.isEmpty)
        #expect(!target.isSwitchedOff(.missed))
        #expect(!target.canReceive(.missed) && !target.canReceive(.answeredElsewhere))
    }
}
