import Foundation
import GRDB
import SQLiteStorage
import XCTest

/// REGISTERs have no server transactions (Sofia would keep each UDP one
/// 32 s): a retransmission is recognised by the registrar, over a raw UDP
/// socket to a real `sipwake serve`, and gets the very same answer, or none
/// while the first is still waiting for its commit.
final class RegisterRetransmissionTests: IntegrationTestCase {
    /// alice's REGISTER with valid credentials, over `socket`, as one string
    /// to send as often as a test likes (the 401 before it is consumed).
    private func authorizedRegister(_ socket: RawSIPSocket, callID: String) throws -> String {
        let alice = RawDigestClient(socket: socket, user: "alice", password: "alice-secret")
        socket.send(alice.register(contact: "<sip:alice@10.0.0.1>", callID: callID))
        let challenge = try XCTUnwrap(socket.receive().flatMap(RawDigestClient.challenge), "401 first")
        return alice.register(contact: "<sip:alice@10.0.0.1>", callID: callID, cseq: 2,
                              authorization: alice.authorization(challenge, method: "REGISTER", uri: "sip:localhost"))
    }

    /// How many REGISTERs with this Call-ID the server accepted (its debug log).
    private func acceptedCount(_ server: SipwakeProcess, callID: String) -> Int {
        server.log.split(separator: "\n").filter { $0.contains("register accepted") && $0.contains(callID) }.count
    }

    func testARetransmittedRegisterGetsTheSameAnswerAndChangesNothing() async throws {
        let server = try await startServer()
        let socket = try RawSIPSocket(udpTo: server.port)
        let callID = UUID().uuidString
        let register = try authorizedRegister(socket, callID: callID)

        socket.send(register)
        let first = try XCTUnwrap(socket.receive())
        XCTAssertEqual(RawDigestClient.status(first), 200, first)
        let to = first.components(separatedBy: "\r\n").first { $0.hasPrefix("To:") } ?? ""
        XCTAssertTrue(to.contains(";tag="), "the 200 carries a To tag: \(to)")
        let stored = try server.registrations(user: "alice")

        socket.send(register)
        let again = try XCTUnwrap(socket.receive())
        XCTAssertEqual(again, first, "the same response, byte for byte (To tag, Contact and expires, Date)")
        XCTAssertEqual(acceptedCount(server, callID: callID), 1, "the retransmission was not registered again")
        XCTAssertEqual(try server.registrations(user: "alice").map { $0["updated_at"] as? String },
                       stored.map { $0["updated_at"] as? String })
    }

    /// What the design is for: a REGISTER's answer leaves a few hundred bytes
    /// behind, where a UDP transaction kept for Timer J held about 10 KiB
    /// (5 000 REGISTERs grew the server by about 50 MB).
    func testRegistrationsLeaveNoTransactionsBehind() async throws {
        let server = try await startServer(config: "[auth]\ntrusted_peers = [\"127.0.0.0/8\"]")
        let socket = try RawSIPSocket(udpTo: server.port)
        let register = { socket.request(method: "REGISTER", extra: "Contact: <sip:probe@10.0.0.1>\r\nExpires: 600\r\n") }
        socket.send(register())
        XCTAssertEqual(RawDigestClient.status(socket.receive()), 200)
        let before = try XCTUnwrap(server.residentMemoryBytes)
        var answered = 0
        for _ in 0..<50 {
            for _ in 0..<100 { socket.send(register()) }
            for _ in 0..<100 where RawDigestClient.status(socket.receive(timeout: 10)) == 200 { answered += 1 }
        }
        XCTAssertEqual(answered, 5000)
        let growth = try XCTUnwrap(server.residentMemoryBytes) - before
        XCTAssertLessThan(growth, 20 << 20, "5 000 REGISTERs answered and kept for 32 s: \(growth >> 10) KiB")
    }

    func testARetransmissionWhileTheRegisterWaitsForItsCommitIsDroppedAndLaterAnswered() async throws {
        let server = try await startServer()
        let socket = try RawSIPSocket(udpTo: server.port)
        let callID = UUID().uuidString
        let register = try authorizedRegister(socket, callID: callID)

        // Another connection holds the database's write lock: the REGISTER's
        // commit waits for it (the server's busy timeout is 5 s).
        let database = try SipwakeDatabase(path: server.directory.appendingPathComponent("sipwake.sqlite").path)
        let locked = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let holder = Thread {
            try? database.pool.writeInTransaction(.immediate) { _ in
                locked.signal()
                release.wait()
                return .commit
            }
        }
        holder.start()
        locked.wait()

        socket.send(register)
        socket.send(register)
        // Answered in order: had the REGISTER or its retransmission been
        // answered, that answer would come before the OPTIONS's.
        socket.send(socket.request(method: "OPTIONS"))
        let whileWaiting = try XCTUnwrap(socket.receive())
        XCTAssertTrue(whileWaiting.contains("CSeq: 1 OPTIONS"), "nothing for the REGISTER yet: \(whileWaiting)")

        release.signal()
        let answer = try XCTUnwrap(socket.receive(timeout: 10))
        XCTAssertEqual(RawDigestClient.status(answer), 200, answer)
        socket.send(socket.request(method: "OPTIONS"))
        let next = try XCTUnwrap(socket.receive())
        XCTAssertTrue(next.contains("CSeq: 1 OPTIONS"), "one answer for the two sends: \(next)")

        // A retransmission after the answer gets it again.
        socket.send(register)
        XCTAssertEqual(socket.receive(), answer)
        XCTAssertEqual(acceptedCount(server, callID: callID), 1)
        XCTAssertEqual(try server.registrations(user: "alice").count, 1)
        try database.close()
    }
}
