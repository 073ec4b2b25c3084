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

    @Test func otherProvidersFallBackToTheOnlyPair() {
        for provider in ["acrobits", "fcm"] {
            let target = Self.target(provider: provider, callsToken: "token", otherToken: nil)
            #expect(target.address(for: .missed)?.token == "token")
            #expect(target.address(for: .incomingCall)?.token == "token")
        }
    }
}
