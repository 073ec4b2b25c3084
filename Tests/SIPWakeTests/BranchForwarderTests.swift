import Config
import Forking
@testable import SIPWake
import Testing

@Suite struct BranchForwarderTests {
    func forwarder() throws -> BranchForwarder {
        let config = try SipwakeConfig.parse("""
            [sip]
            listen = ["udp:0.0.0.0:5080", "tcp:0.0.0.0:5081"]
            public_host = "sip.example.com"
            """, file: "/srv/sipwake/etc/sipwake.toml", environment: [:])
        return BranchForwarder(settings: CallProxySettings(config: config, tokenSecret: [1], pushEnabled: true))
    }

    @Test func routesNamingThisProxyAreItsOwn() throws {
        let forwarder = try forwarder()
        #expect(forwarder.isOwnRoute("<sip:sip.example.com:5080;lr>"))
        #expect(forwarder.isOwnRoute("<sip:SIP.example.com:5081;transport=tcp;lr>"))
        #expect(forwarder.isOwnRoute("<sip:sip.example.com;lr>"))
    }

    @Test func routesToOtherHostsOrPortsAreNot() throws {
        let forwarder = try forwarder()
        #expect(!forwarder.isOwnRoute("<sip:pbx.example.com:5080;lr>"))
        #expect(!forwarder.isOwnRoute("<sip:sip.example.com:5090;lr>"))
        #expect(!forwarder.isOwnRoute("<sip:sip.example.com.evil:5080;lr>"))
    }

    @Test func aCancelledBranchSaysWhyInItsReason() throws {
        let forwarder = try forwarder()
        #expect(forwarder.cancelReason(.answeredElsewhere, callerReason: nil)
            == "SIP;cause=200;text=\"Call completed elsewhere\"")
        #expect(forwarder.cancelReason(.callerCancelled, callerReason: "SIP;cause=487") == "SIP;cause=487")
        #expect(forwarder.cancelReason(.noAnswer, callerReason: "ignored") == "SIP;cause=480;text=\"No answer\"")
        #expect(forwarder.cancelReason(.replaced, callerReason: "ignored") == nil)
    }
}
