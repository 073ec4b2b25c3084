import Foundation
import XCTest

/// Phones sit behind NAT: what they put in Via and Contact is a private
/// address. Answers and bindings must use where the request really came from.
final class NATTests: IntegrationTestCase {
    func testResponsesGoToTheAddressTheRequestCameFromNotTheVia() async throws {
        let server = try await startServer(config: "[auth]\ntrusted_peers = [\"127.0.0.1\"]")
        let socket = try RawSIPSocket(udpTo: server.port)
        // The Via claims a private address and port, as a phone behind NAT would.
        let request = socket.request(method: "REGISTER", extra: "Contact: <sip:alice@192.168.7.7:5060>\r\nExpires: 600\r\n")
            .replacingOccurrences(of: "127.0.0.1:\(socket.localPort);", with: "192.168.7.7:5060;")
            .replacingOccurrences(of: "To: <sip:probe@localhost>", with: "To: <sip:alice@localhost>")
            .replacingOccurrences(of: "From: <sip:probe@localhost>", with: "From: <sip:alice@localhost>")
        socket.send(request)
        let response = try XCTUnwrap(socket.receive(), "the answer reached the real source port")
        XCTAssertTrue(response.hasPrefix("SIP/2.0 200"), response)
        XCTAssertTrue(response.contains("received=127.0.0.1"), response)
        XCTAssertTrue(response.contains("rport=\(socket.localPort)"), response)
        let row = try XCTUnwrap(try server.registrations(user: "alice").first)
        XCTAssertEqual(row["source"] as? String, "127.0.0.1:\(socket.localPort)")
    }
}
