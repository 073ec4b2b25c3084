import Config
import Forking
import Foundation
import Registrar
@testable import SIPWake
import XCTest

/// The forking proxy's settings as read from the configuration, and the
/// relay rules they decide.
final class CallProxySettingsTests: XCTestCase {
    private func settings(_ toml: String) throws -> CallProxySettings {
        let config = try SipwakeConfig.parse(toml, file: "/srv/sipwake/etc/sipwake.toml", environment: [:])
        return CallProxySettings(config: config, tokenSecret: [1, 2, 3], pushEnabled: true)
    }

    func testEveryCallsAndPushKeyReachesTheProxy() throws {
        let s = try settings("""
            [sip]
            listen = ["udp:0.0.0.0:5080", "tcp:0.0.0.0:5081"]
            public_host = "sip.example.com"
            [calls]
            wake_window = 12
            timeout_status = 408
            ringback_on_push = true
            end_notification = "message"
            missed_call_grace = 7
            pairing_id = "uuid"
            outbound_proxy = "sip:pbx.example.com;transport=tcp"
            rejected_records_per_minute = 5
            [push]
            incoming_badge = 3
            missed_badge = 4
            sound = ""
            """)
        XCTAssertEqual(s.fork, ForkSettings(wakeWindow: 12, timeoutStatus: 408, ringbackOnPush: true,
                                            endNotification: .message, missedCallGrace: 7))
        XCTAssertTrue(s.pairingFromUUID)
        XCTAssertEqual(s.rejectedRecordsPerMinute, 5)
        XCTAssertEqual(s.outboundProxy, "sip:pbx.example.com;transport=tcp")
        XCTAssertEqual(s.recordRouteHost, "sip.example.com")
        XCTAssertEqual(s.ports, [.udp: 5080, .tcp: 5081])
        XCTAssertEqual(s.incomingBadge, 3)
        XCTAssertEqual(s.missedBadge, 4)
        XCTAssertNil(s.sound)
        XCTAssertEqual(s.recordRoute(transport: .tcp, token: "t"), "<sip:sip.example.com:5081;transport=tcp;lr;swk=t>")
    }

    func testRecordRouteHostFallsBackToTheListenAddressThenTheDomain() throws {
        XCTAssertEqual(try settings("[sip]\nlisten = [\"udp:127.0.0.3:5060\"]").recordRouteHost, "127.0.0.3")
        XCTAssertEqual(try settings("[sip]\nlisten = [\"udp:0.0.0.0:5060\"]\ndomains = [\"voip.example\"]").recordRouteHost,
                       "voip.example")
    }

    func testInDialogRelayOnlyToTrustedPeersOrTheOutboundProxy() throws {
        let s = try settings("""
            [auth]
            trusted_peers = ["10.0.0.0/8", "2001:db8::1"]
            [calls]
            outbound_proxy = "sip:PBX.example.com:5060"
            """)
        XCTAssertTrue(s.mayRelayInDialog(to: "sip:1000@10.1.2.3:5060"))
        XCTAssertTrue(s.mayRelayInDialog(to: "sip:1000@[2001:db8::1]:5060;transport=tcp"))
        XCTAssertTrue(s.mayRelayInDialog(to: "sip:1000@pbx.example.com"))
        XCTAssertFalse(s.mayRelayInDialog(to: "sip:victim@203.0.113.9"))
        XCTAssertFalse(s.mayRelayInDialog(to: "not a uri"))
        XCTAssertTrue(s.trustsSource("10.9.9.9"))
        XCTAssertFalse(s.trustsSource("203.0.113.9"))
        XCTAssertTrue(try settings("[auth]\nenabled = false").trustsSource("203.0.113.9"), "auth off: a lab")
    }
}
