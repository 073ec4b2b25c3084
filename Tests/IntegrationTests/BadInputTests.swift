import Foundation
import XCTest

/// Bad bytes on the wire get a clear answer or a closed connection, never a
/// crash or a stalled loop.
final class BadInputTests: IntegrationTestCase {
    private func assertStillServing(_ server: SipwakeProcess, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertTrue(server.isRunning, "server died", file: file, line: line)
        let probe = try RawSIPSocket(udpTo: server.port)
        probe.send(probe.request())
        XCTAssertEqual(probe.receive()?.hasPrefix("SIP/2.0 200"), true, "server stopped answering", file: file, line: line)
    }

    func testMalformedRequestGets400() async throws {
        let server = try await startServer()
        let socket = try RawSIPSocket(udpTo: server.port)
        let bad = socket.request(method: "REGISTER").replacingOccurrences(of: "CSeq: 1 REGISTER", with: "CSeq: one REGISTER")
        socket.send(bad)
        let response = try XCTUnwrap(socket.receive())
        XCTAssertTrue(response.hasPrefix("SIP/2.0 400"), response)
        try assertStillServing(server)
    }

    func testRequestWithoutUsableViaIsDroppedAndServerGoesOn() async throws {
        let server = try await startServer()
        let socket = try RawSIPSocket(udpTo: server.port)
        socket.send("REGISTER sip:localhost SIP/2.0\r\nVia: ???\r\nCall-ID: x\r\n\r\n")
        _ = socket.receive(timeout: 0.5)
        try assertStillServing(server)
    }

    func testOversizeMessageIsRefused() async throws {
        let server = try await startServer(config: "[sip]\nmax_message_size = 2048")
        let socket = try RawSIPSocket(udpTo: server.port)
        let body = String(repeating: "v=0\r\n", count: 1000)
        socket.send(socket.request(method: "OPTIONS", extra: "Content-Type: application/sdp\r\n", body: body))
        let response = try XCTUnwrap(socket.receive(timeout: 2))
        XCTAssertTrue(response.hasPrefix("SIP/2.0 413"), response)
        try assertStillServing(server)
    }

    func testOversizeMessageOnTCPIsRefused() async throws {
        let server = try await startServer(config: "[sip]\nmax_message_size = 2048")
        let socket = try RawSIPSocket(tcpTo: server.port)
        let body = String(repeating: "v=0\r\n", count: 1000)
        socket.send(socket.request(method: "OPTIONS", extra: "Content-Type: application/sdp\r\n", body: body))
        let response = try XCTUnwrap(socket.receive(timeout: 2))
        XCTAssertTrue(response.hasPrefix("SIP/2.0 413"), response)
        try assertStillServing(server)
    }

    func testAMessageLargerThanSofiaCanFrameClosesTheConnection() async throws {
        let server = try await startServer()
        let socket = try RawSIPSocket(tcpTo: server.port)
        let body = String(repeating: "x", count: 70_000)
        socket.send(socket.request(method: "OPTIONS", extra: "Content-Type: text/plain\r\n", body: body))
        var closed = false
        for _ in 0..<5 {
            guard let chunk = socket.receive(timeout: 1) else { continue }
            if chunk.isEmpty { closed = true; break }
        }
        XCTAssertTrue(closed)
        try assertStillServing(server)
    }

    func testGarbageOnATCPConnectionClosesOnlyThatConnection() async throws {
        let server = try await startServer()
        let good = try RawSIPSocket(tcpTo: server.port)
        good.send(good.request())
        XCTAssertEqual(good.receive()?.hasPrefix("SIP/2.0 200"), true)

        // A connection that worked, then loses framing.
        let bad = try RawSIPSocket(tcpTo: server.port)
        bad.send(bad.request())
        XCTAssertEqual(bad.receive()?.hasPrefix("SIP/2.0 200"), true)
        bad.send("\u{01}\u{02}GARBAGE GARBAGE\r\nnot: a sip message\r\n\r\n")
        var closed = false
        for _ in 0..<5 {
            guard let chunk = bad.receive(timeout: 1) else { continue }
            if chunk.isEmpty { closed = true; break }
        }
        XCTAssertTrue(closed, "the garbage connection is closed")

        good.send(good.request())
        XCTAssertEqual(good.receive()?.hasPrefix("SIP/2.0 200"), true, "the other connection still works")
        try assertStillServing(server)
    }

    func testCRLFKeepAliveOnTCPGetsAPong() async throws {
        let server = try await startServer()
        let socket = try RawSIPSocket(tcpTo: server.port)
        socket.send(socket.request())
        XCTAssertEqual(socket.receive()?.hasPrefix("SIP/2.0 200"), true)
        socket.send("\r\n\r\n")
        XCTAssertEqual(socket.receive(), "\r\n", "RFC 5626 §4.4.1 pong")
    }

    func testBinaryNoiseOnUDPIsIgnored() async throws {
        let server = try await startServer()
        let socket = try RawSIPSocket(udpTo: server.port)
        for _ in 0..<50 {
            socket.send(String((0..<200).map { _ in Character(UnicodeScalar(UInt8.random(in: 1...255))) }))
        }
        try assertStillServing(server)
    }
}
