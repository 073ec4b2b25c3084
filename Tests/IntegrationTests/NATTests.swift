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

    /// A REGISTER from `socket` whose Via and Contact claim a private address.
    private func natRegister(_ socket: RawSIPSocket, user: String = "alice", extra: String = "") -> String {
        let transport = socket.isStream ? "tcp" : "udp"
        return socket.request(method: "REGISTER",
                              extra: "Contact: <sip:\(user)@192.168.7.7:5060;transport=\(transport)>\r\nExpires: 600\r\n" + extra)
            .replacingOccurrences(of: "127.0.0.1:\(socket.localPort);", with: "192.168.7.7:5060;")
            .replacingOccurrences(of: "<sip:probe@localhost>", with: "<sip:\(user)@localhost>")
    }

    /// Reads until a request line starting with `prefix` arrives (or times out).
    private func awaitRequest(_ socket: RawSIPSocket, _ prefix: String, seconds: Int = 4) -> String? {
        var buffered = ""
        for _ in 0..<(seconds * 2) {
            guard let chunk = socket.receive(timeout: 0.5) else { continue }
            if chunk.isEmpty { return nil }
            buffered += chunk
            if let range = buffered.range(of: prefix) { return String(buffered[range.lowerBound...]) }
        }
        return nil
    }

    private let keepaliveConfig = "[auth]\ntrusted_peers = [\"127.0.0.1\"]\n[registrar]\nkeepalive_interval = 1"

    /// `phone` registers alice from behind NAT; the server answers 200.
    private func registerBehindNAT(_ phone: RawSIPSocket, extra: String = "",
                                   file: StaticString = #filePath, line: UInt = #line) {
        phone.send(natRegister(phone, extra: extra))
        XCTAssertEqual(phone.receive()?.hasPrefix("SIP/2.0 200"), true, file: file, line: line)
    }

    /// The keep-alive OPTIONS a phone registered from behind NAT receives
    /// on its own socket, when keep-alives are on.
    private func keepaliveReachingThePhone(tcp: Bool) async throws -> String? {
        let server = try await startServer(config: keepaliveConfig)
        let phone = try tcp ? RawSIPSocket(tcpTo: server.port) : RawSIPSocket(udpTo: server.port)
        registerBehindNAT(phone)
        return awaitRequest(phone, "OPTIONS sip:alice@192.168.7.7:5060")
    }

    func testKeepalivesGoToTheNATAddressOverUDP() async throws {
        let options = try XCTUnwrapAsync(await keepaliveReachingThePhone(tcp: false),
                                         "the keep-alive reached the real source port, not the Contact's")
        XCTAssertTrue(options.contains("CSeq: 1 OPTIONS"), options)
    }

    func testKeepalivesReuseTheRegisteringTCPConnection() async throws {
        // 192.168.7.7 is unreachable from here: only the phone's own connection works.
        let options = try XCTUnwrapAsync(await keepaliveReachingThePhone(tcp: true),
                                         "the keep-alive came back over the connection the REGISTER used")
        XCTAssertTrue(options.contains("SIP/2.0/TCP"), options)
    }

    func testKeepalivesToABindingWithAPathGoThroughThePath() async throws {
        // The REGISTER stands for one an edge proxy relayed, adding its Path.
        let server = try await startServer(config: keepaliveConfig + "\n[sip]\nedge_proxies = [\"127.0.0.1\"]")
        let edge = try RawSIPSocket(udpTo: server.port)
        let phone = try RawSIPSocket(udpTo: server.port)
        registerBehindNAT(phone, extra: "Path: <sip:127.0.0.1:\(edge.localPort);lr>\r\nSupported: path\r\n")
        let options = try XCTUnwrap(awaitRequest(edge, "OPTIONS sip:alice@192.168.7.7:5060"),
                                    "the edge proxy on the Path got the keep-alive")
        XCTAssertTrue(options.contains("Route: <sip:127.0.0.1:\(edge.localPort);lr>"), options)
    }

    func testNoKeepalivesWhenSwitchedOff() async throws {
        let server = try await startServer(config: "[auth]\ntrusted_peers = [\"127.0.0.1\"]")
        let phone = try RawSIPSocket(udpTo: server.port)
        registerBehindNAT(phone)
        XCTAssertNil(awaitRequest(phone, "OPTIONS", seconds: 3))
    }
}
