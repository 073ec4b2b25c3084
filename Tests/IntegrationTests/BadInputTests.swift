import Foundation
import XCTest

/// Bad bytes on the wire get a clear answer or a closed connection, never a
/// crash or a stalled loop.
final class BadInputTests: IntegrationTestCase {
    private func assertStillServing(_ server: SipwakeProcess, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertTrue(server.isRunning, "server died", file: file, line: line)
        assertAnswersOptions(try RawSIPSocket(udpTo: server.port), "server stopped answering", file: file, line: line)
    }

    /// An OPTIONS sent on `socket` is answered 200.
    private func assertAnswersOptions(_ socket: RawSIPSocket, _ message: String = "",
                                      file: StaticString = #filePath, line: UInt = #line) {
        socket.send(socket.request())
        XCTAssertEqual(socket.receive()?.hasPrefix("SIP/2.0 200"), true, message, file: file, line: line)
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
        try await assertOversizeMessageIsRefused { try RawSIPSocket(udpTo: $0) }
    }

    func testOversizeMessageOnTCPIsRefused() async throws {
        try await assertOversizeMessageIsRefused { try RawSIPSocket(tcpTo: $0) }
    }

    /// A 5,000-byte OPTIONS to a server that takes 2,048 bytes gets 413, and
    /// the server goes on serving.
    private func assertOversizeMessageIsRefused(_ connect: (Int) throws -> RawSIPSocket) async throws {
        let server = try await startServer(config: "[sip]\nmax_message_size = 2048")
        let socket = try connect(server.port)
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
        XCTAssertTrue(socket.receiveUntilClosed(reads: 5).closed)
        try assertStillServing(server)
    }

    func testGarbageOnATCPConnectionClosesOnlyThatConnection() async throws {
        let server = try await startServer()
        let good = try RawSIPSocket(tcpTo: server.port)
        assertAnswersOptions(good)

        // A connection that worked, then loses framing.
        let bad = try RawSIPSocket(tcpTo: server.port)
        assertAnswersOptions(bad)
        bad.send("\u{01}\u{02}GARBAGE GARBAGE\r\nnot: a sip message\r\n\r\n")
        XCTAssertTrue(bad.receiveUntilClosed(reads: 5).closed, "the garbage connection is closed")

        assertAnswersOptions(good, "the other connection still works")
        try assertStillServing(server)
    }

    func testCRLFKeepAliveOnTCPGetsAPong() async throws {
        let server = try await startServer()
        let socket = try RawSIPSocket(tcpTo: server.port)
        assertAnswersOptions(socket)
        socket.send("\r\n\r\n")
        XCTAssertEqual(socket.receive(), "\r\n", "RFC 5626 §4.4.1 pong")
    }

    /// A complete OPTIONS followed, in the same TCP write, by one announcing
    /// a body of 2^31 bytes (or 2^32 - 1, or just under 2^31): Sofia used to
    /// abort on its allocator's assertion, or reserve 2 GB for the connection.
    /// Now the second message keeps the size limit: 413, that connection
    /// closed, the server serving, its memory untouched.
    func testPipelinedHugeContentLengthClosesOnlyThatConnection() async throws {
        let server = try await startServer()
        let rssBefore = try XCTUnwrap(server.residentMemoryBytes)
        for length in ["2147483648", "4294967295", "2147483000", "70000"] {
            let socket = try RawSIPSocket(tcpTo: server.port)
            let second = socket.request(body: "x")
                .replacingOccurrences(of: "Content-Length: 1\r\n", with: "Content-Length: \(length)\r\n")
            socket.send(socket.request() + second)
            let (received, closed) = socket.receiveUntilClosed(reads: 10)
            XCTAssertTrue(received.hasPrefix("SIP/2.0 200"), "the first message is answered (\(length)): \(received)")
            XCTAssertTrue(received.contains("SIP/2.0 413"), "the second is refused (\(length)): \(received)")
            XCTAssertTrue(closed, "the connection that announced \(length) bytes is closed")
            try assertStillServing(server)
        }
        let rssAfter = try XCTUnwrap(server.residentMemoryBytes)
        XCTAssertLessThan(rssAfter - rssBefore, 32 << 20, "no memory reserved for announced bodies")
    }

    /// The same after a message split across two writes, so that the
    /// announcing one starts in the middle of a read.
    func testEveryMessageOfAStreamKeepsTheSizeLimit() async throws {
        let server = try await startServer(config: "[sip]\nmax_message_size = 2048")
        let socket = try RawSIPSocket(tcpTo: server.port)
        let first = socket.request()
        let cut = first.index(first.startIndex, offsetBy: first.count / 2)
        socket.send(String(first[..<cut]))
        usleep(100_000)
        let big = socket.request(extra: "Content-Type: text/plain\r\n", body: "y")
            .replacingOccurrences(of: "Content-Length: 1\r\n", with: "Content-Length: 1000000\r\n")
        socket.send(String(first[cut...]) + big)
        var received = ""
        for _ in 0..<10 {
            guard let chunk = socket.receive(timeout: 1) else { continue }
            if chunk.isEmpty { break }
            received += chunk
        }
        XCTAssertTrue(received.hasPrefix("SIP/2.0 200"), received)
        XCTAssertTrue(received.contains("SIP/2.0 413"), "a pipelined 1 MB announcement is refused at once: \(received)")
        try assertStillServing(server)
    }

    /// RFC 3261 §8.2.2.1: 416 for a Request-URI scheme sipwake does not serve.
    func testUnknownURISchemeGets416() async throws {
        let server = try await startServer()
        let socket = try RawSIPSocket(udpTo: server.port)
        socket.send(socket.request(uri: "nope:alice@localhost"))
        XCTAssertEqual(socket.receive()?.hasPrefix("SIP/2.0 416"), true)
        socket.send(socket.request(uri: "sips:localhost"))
        XCTAssertEqual(socket.receive()?.hasPrefix("SIP/2.0 200"), true)
    }

    /// RFC 3261 §25.1: `Method SP Request-URI SP SIP-Version`, single spaces.
    func testARequestLineWithExtraWhiteSpaceGets400() async throws {
        let server = try await startServer()
        let socket = try RawSIPSocket(udpTo: server.port)
        for line in ["OPTIONS  sip:localhost SIP/2.0", "OPTIONS sip:localhost  SIP/2.0", "OPTIONS sip:localhost SIP/2.0 ",
                     "OPTIONS\tsip:localhost SIP/2.0"] {
            socket.send(socket.request().replacingOccurrences(of: "OPTIONS sip:localhost SIP/2.0", with: line))
            let answer = socket.receive()
            XCTAssertEqual(answer?.hasPrefix("SIP/2.0 400"), true, "\(line.debugDescription): \(answer ?? "nothing")")
        }
        try assertStillServing(server)
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
