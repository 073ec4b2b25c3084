import Foundation
import Model
import Registrar
@testable import SIPWake
import XCTest

final class BindingRouteTests: XCTestCase {
    private func binding(transport: SIPTransport, host: String, port: Int, connection: UInt64?, path: [String] = []) -> Binding {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        return Binding(aor: "alice", contact: "sip:alice@192.168.1.20:5060", callID: "c", cseq: 1,
                       expiresAt: now.addingTimeInterval(600), path: path,
                       source: BindingSource(transport: transport, host: host, port: port, connectionID: connection),
                       registeredAt: now, updatedAt: now)
    }

    func testUDPGoesToTheSourceAddressNotTheContact() {
        let route = BindingRoute(binding(transport: .udp, host: "203.0.113.7", port: 40123, connection: nil))
        XCTAssertEqual(route.nextHop, "sip:203.0.113.7:40123;transport=udp")
        XCTAssertNil(route.connectionID)
        XCTAssertEqual(route.routeHeaders, [])
    }

    func testStreamTransportsKeepTheirConnection() {
        let tcp = BindingRoute(binding(transport: .tcp, host: "203.0.113.7", port: 51000, connection: 42))
        XCTAssertEqual(tcp.nextHop, "sip:203.0.113.7:51000;transport=tcp")
        XCTAssertEqual(tcp.connectionID, 42)
        let tls = BindingRoute(binding(transport: .tls, host: "203.0.113.7", port: 51001, connection: 43))
        XCTAssertEqual(tls.nextHop, "sip:203.0.113.7:51001;transport=tls")
        XCTAssertEqual(tls.connectionID, 43)
    }

    func testIPv6SourcesAreBracketed() {
        let route = BindingRoute(binding(transport: .udp, host: "2001:db8::7", port: 5060, connection: nil))
        XCTAssertEqual(route.nextHop, "sip:[2001:db8::7]:5060;transport=udp")
    }

    func testAPathSendsTheRequestToItsFirstHopWithRouteHeaders() {
        let path = ["<sip:edge1.example.net;lr>", "<sip:edge2.example.net:5070;transport=tcp;lr>"]
        let route = BindingRoute(binding(transport: .tcp, host: "203.0.113.7", port: 51000, connection: 42, path: path))
        XCTAssertEqual(route.nextHop, "sip:edge1.example.net;lr")
        XCTAssertEqual(route.routeHeaders, path)
        XCTAssertNil(route.connectionID, "the edge proxy, not this server, holds the phone's connection")
    }
}
