import Model
@testable import SIPCore
import Testing

/// The push token a Contact names its device by, as Sofia reads it.
@Suite struct SIPURIPushTokenTests {
    static func token(_ contact: String) -> String? {
        SIPURI(parsing: contact)?.pushDeviceToken
    }

    @Test func theEscapesOfPnPridAreUndone() {
        #expect(Self.token("sip:alice@192.0.2.7:5060;pn-provider=fcm;pn-prid=dQw4w9WgXcQ%3AAPA91bH") == "dQw4w9WgXcQ:APA91bH")
        #expect(Self.token("sip:alice@192.0.2.7;transport=tls;pn-provider=apns;pn-prid=v0%3Avoip%26a1%3Aremote;pn-param=T.b")
            == "v0:voip&a1:remote")
    }

    @Test func noProviderIsNeededAndTheDraftsPnTokCounts() {
        #expect(Self.token("sip:alice@192.0.2.7;pn-prid=tok-1") == "tok-1")
        #expect(Self.token("sip:alice@192.0.2.7;pn-type=apple;pn-tok=tok%2F2") == "tok/2")
        #expect(Self.token("sip:alice@192.0.2.7;pn-prid=tok-1;pn-tok=tok-2") == "tok-1", "pn-prid first")
    }

    @Test func aContactWithoutATokenNamesNone() {
        #expect(Self.token("sip:alice@192.0.2.7:5060;transport=udp") == nil)
        #expect(Self.token("sip:alice@192.0.2.7;pn-provider=apns") == nil)
        #expect(Self.token("sip:alice@192.0.2.7;pn-prid=") == nil)
    }
}
