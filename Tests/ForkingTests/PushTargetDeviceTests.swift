import Forking
import Foundation
import Model
import Testing

/// Which binding a device tuple is (`isDevice(of:contactToken:)`).
@Suite struct PushTargetDeviceTests {
    static let instance = "<urn:uuid:6f1c2a3b-0000-4000-8000-00000000000a>"

    static func binding(aor: String = "alice", instance: String? = nil) -> Binding {
        Binding(aor: aor, contact: "sip:\(aor)@192.0.2.10:5060", instanceID: instance, callID: "reg", cseq: 1,
                expiresAt: Date(timeIntervalSince1970: 3600),
                source: BindingSource(transport: .udp, host: "192.0.2.10", port: 5060),
                registeredAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 0))
    }

    static func tuple(selector: String, token: String = "tok") -> PushTarget {
        PushTarget(tupleID: 1, selector: selector, callsAppID: "app", callsToken: token, otherAppID: "app", otherToken: token)
    }

    @Test func theSelectorOfARegisterWithoutInstanceIsItsToken() {
        // The app reported new tokens since; the tuple keeps the selector its REGISTER made.
        let tuple = Self.tuple(selector: "rfc8599:alice:pn-prid:old-token", token: "new-token")
        #expect(tuple.isDevice(of: Self.binding(), contactToken: "old-token"))
        #expect(!tuple.isDevice(of: Self.binding(aor: "bob"), contactToken: "old-token"), "another user's device")
        #expect(!tuple.isDevice(of: Self.binding(), contactToken: "other-token"))
        #expect(!tuple.isDevice(of: Self.binding(), contactToken: nil))
    }

    @Test func theInstanceSelectorIsPerUser() {
        #expect(Self.tuple(selector: "rfc8599:alice:\(Self.instance)").isDevice(of: Self.binding(instance: Self.instance),
                                                                                contactToken: nil))
        #expect(!Self.tuple(selector: "rfc8599:bob:\(Self.instance)").isDevice(of: Self.binding(instance: Self.instance),
                                                                               contactToken: nil))
    }

    @Test func aReportedSelectorNamesTheInstanceOnlyWhole() {
        #expect(PushTarget.selector("urn:uuid:6F1C2A3B-0000-4000-8000-00000000000A", namesInstance: Self.instance))
        #expect(PushTarget.selector("6f1c2a3b-0000-4000-8000-00000000000a", namesInstance: Self.instance))
        #expect(!PushTarget.selector("6f1c2a3b", namesInstance: Self.instance))
        #expect(!PushTarget.selector("uuid:6f1c2a3b-0000-4000-8000-00000000000a", namesInstance: Self.instance))
        #expect(!PushTarget.selector("", namesInstance: Self.instance))
        #expect(!PushTarget.selector("<>", namesInstance: "<>"), "an empty instance names nothing")
        // Only a urn:uuid has a bare form.
        #expect(PushTarget.selector("urn:example:phone-1", namesInstance: "<urn:example:phone-1>"))
        #expect(!PushTarget.selector("phone-1", namesInstance: "<urn:example:phone-1>"))
    }
}
