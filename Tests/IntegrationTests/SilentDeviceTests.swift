import Foundation
import SQLiteStorage
import XCTest

/// One live INVITE per device on the wire: a phone that takes the INVITE
/// without a word (no 100, no 180), then re-registers from the same contact
/// and device, gets a new INVITE and never again the old one; when the call
/// ends nothing more is sent to it; and if it rings on the old INVITE after
/// all, that INVITE is cancelled then (and its final ACKed).
final class SilentDeviceTests: IntegrationTestCase {
    func testASilentPhoneThatReRegistersOverUDPNeverHasTwoInvitesAlive() async throws {
        try await silentPhoneReRegisters(transport: "udp")
    }

    func testASilentPhoneThatReRegistersOverTCPNeverHasTwoInvitesAlive() async throws {
        try await silentPhoneReRegisters(transport: "tcp")
    }

    private func silentPhoneReRegisters(transport: String) async throws {
        let server = try await startServer(config: """
            [auth]
            trusted_peers = ["127.0.0.2"]
            [push]
            enabled = false
            [calls]
            wake_window = 20
            """)
        let instance = UUID().uuidString.lowercased()
        let phone = transport == "tcp" ? try SilentPhone(tcpTo: server.port, instance: instance)
            : try SilentPhone(udpTo: server.port, instance: instance)
        XCTAssertEqual(phone.register(), 200)

        let pbx = try await startPhone("pbx", host: "127.0.0.2")
        let pairing = "pair-silent-\(transport)"
        let outgoing = await pbx.invite("sip:alice@localhost", via: server.proxy("udp"),
                                        headers: [("X-Push-ID", pairing)], media: "audio")
        let first = try XCTUnwrap(phone.next(timeout: 5) { $0.method == "INVITE" }, "the first INVITE")
        let oldBranch = try XCTUnwrap(first.branch)
        XCTAssertEqual(first.header("X-Push-ID"), pairing)
        if transport == "udp" {
            // Unanswered, the INVITE is retransmitted (Timer A).
            XCTAssertNotNil(phone.next(timeout: 3) { $0.method == "INVITE" && $0.branch == oldBranch },
                            "a retransmission of the first INVITE")
        }

        // The app wakes and registers again: same contact, same device.
        let sentAt = phone.received.count
        XCTAssertEqual(phone.register(), 200)
        let registeredAt = phone.received.count
        // The new INVITE goes out as the binding commits, before or after the 200.
        let isNew: (SilentPhone.Message) -> Bool = { $0.method == "INVITE" && $0.branch != oldBranch }
        let second = try XCTUnwrap(phone.received[sentAt...].first(where: isNew) ?? phone.next(timeout: 5, where: isNew),
                                   "the INVITE of the new branch: \(phone.received.map(\.firstLine))")
        let newBranch = try XCTUnwrap(second.branch)
        let afterReRegister = phone.collect(for: 2.5)
        let stale = phone.received[registeredAt...].filter { $0.method == "INVITE" && $0.branch == oldBranch }
        XCTAssertEqual(stale.count, 0, "the old INVITE kept going after the re-REGISTER: \(stale.map(\.firstLine))")
        if transport == "udp" {
            XCTAssertTrue(afterReRegister.contains { $0.method == "INVITE" && $0.branch == newBranch },
                          "the new INVITE is the one retransmitted")
        }

        // The PBX gives up: the call ends; nothing more goes to the phone's INVITEs.
        await pbx.cancel(outgoing)
        let final = await pbx.waitForResponse(outgoing, atLeast: 200, timeout: .seconds(5))
        XCTAssertEqual(final?.status, 487)
        let missed = try XCTUnwrap(phone.next(timeout: 5) { $0.method == "MESSAGE" }, "the missed-call MESSAGE ends the call")
        phone.respond(to: missed, status: 200, phrase: "OK")
        let endedAt = phone.received.firstIndex { $0.method == "MESSAGE" } ?? phone.received.count
        _ = phone.collect(for: 2.5)
        let afterEnd = phone.received[endedAt...].filter { $0.method == "INVITE" }
        XCTAssertEqual(afterEnd.count, 0, "INVITEs after the call ended: \(afterEnd.map { $0.branch ?? "" })")
        XCTAssertFalse(phone.received.contains { $0.method == "CANCEL" }, "no CANCEL before the phone said anything")

        let story = try await server.endedCallRecord(pairing)
        let branches = try XCTUnwrap(story["branches"] as? [[String: Any]], "\(story)")
        XCTAssertEqual(branches.count, 2, "\(branches)")
        XCTAssertEqual(branches.first?["cancelled"] as? String, "replaced")
        XCTAssertEqual(branches.last?["cancelled"] as? String, "caller-cancelled")
        for branch in branches {
            XCTAssertNotNil(branch["ended_at"] as? String, "every branch is closed: \(branch)")
            XCTAssertTrue((branch["final_reason"] as? String)?.contains("no response from the device") == true, "\(branch)")
        }
        XCTAssertEqual(story["outcome"] as? String, "cancelled")
        XCTAssertNotNil(story["ended_at"] as? String)
        let shown = try server.cli(["calls", "show", pairing]).stdout
        XCTAssertTrue(shown.contains("branch 1: no response from the device; its INVITE was stopped for the new one"), shown)
        XCTAssertTrue(shown.contains("stopped +"), shown)

        // The phone finally rings on the old INVITE: it is cancelled now,
        // and its 487 is ACKed on the same branch.
        phone.respond(to: first, status: 180, phrase: "Ringing")
        let cancel = try XCTUnwrap(phone.next(timeout: 5) { $0.method == "CANCEL" }, "a CANCEL for the old INVITE")
        XCTAssertEqual(cancel.branch, oldBranch)
        XCTAssertEqual(cancel.header("Call-ID"), first.header("Call-ID"))
        XCTAssertEqual(cancel.header("CSeq")?.components(separatedBy: " ").first,
                       first.header("CSeq")?.components(separatedBy: " ").first)
        phone.respond(to: cancel, status: 200, phrase: "OK")
        phone.respond(to: first, status: 487, phrase: "Request Terminated")
        let ack = try XCTUnwrap(phone.next(timeout: 5) { $0.method == "ACK" }, "the ACK of the 487")
        XCTAssertEqual(ack.branch, oldBranch)
        XCTAssertTrue(ack.header("To")?.contains("tag=silent1") == true, ack.text)
    }

    /// A device that answers after another one did, on an INVITE sipwake had
    /// already stopped (it never said a word before): its 2xx still reaches
    /// the PBX (RFC 3261 §16.7 step 5), while the call lingers for its grace
    /// period with its server transaction already let go.
    func testALateAnswerOnAStoppedBranchStillReachesThePBX() async throws {
        let gateway = try await LabPushGateway.start()
        defer { Task { await gateway.stop() } }
        let server = try await startServer(config: """
            [auth]
            trusted_peers = ["127.0.0.2"]
            [push]
            gateway_url = "\(gateway.url)"
            [calls]
            wake_window = 20
            missed_call_grace = 10
            """)
        let database = try SipwakeDatabase(path: server.directory.appendingPathComponent("sipwake.sqlite").path)
        _ = try TupleStore(database: database).report(
            username: "alice", selector: "sel-late", appIDCalls: "com.example.voip", tokenCalls: "token-late",
            appIDOther: "com.example.app", tokenOther: "token-late", platform: .ios)
        let phoneA = try SilentPhone(udpTo: server.port, instance: UUID().uuidString.lowercased())
        let phoneB = try SilentPhone(udpTo: server.port, instance: UUID().uuidString.lowercased())
        XCTAssertEqual(phoneA.register(), 200)
        XCTAssertEqual(phoneB.register(), 200)

        let pbx = try RawSIPSocket(udpTo: server.port, from: "127.0.0.2")
        let invite = pbx.request(method: "INVITE", uri: "sip:alice@localhost",
                                 extra: "Contact: <sip:pbx@127.0.0.2:\(pbx.localPort)>\r\nX-Push-ID: pair-late-2xx\r\n")
        pbx.send(invite)
        let onA = try XCTUnwrap(phoneA.next(timeout: 5) { $0.method == "INVITE" })
        let onB = try XCTUnwrap(phoneB.next(timeout: 5) { $0.method == "INVITE" })
        _ = await gateway.waitForPush("NotifyIncomingCall")
        phoneA.respond(to: onA, status: 200, phrase: "OK", tag: "tag-a")
        var answers: [String] = []
        func readAnswers(until count: Int) {
            for _ in 0..<20 where answers.count < count {
                guard let text = pbx.receive(timeout: 0.5) else { continue }
                if text.hasPrefix("SIP/2.0 200") { answers.append(text) }
            }
        }
        readAnswers(until: 1)
        XCTAssertTrue(answers.first?.contains("tag=tag-a") == true, "\(answers)")
        // B never rang: its INVITE was stopped, not cancelled.
        XCTAssertFalse(phoneB.collect(for: 1).contains { $0.method == "CANCEL" })
        phoneB.respond(to: onB, status: 200, phrase: "OK", tag: "tag-b")
        readAnswers(until: 2)
        XCTAssertEqual(answers.count, 2, "\(answers)")
        XCTAssertTrue(answers.last?.contains("tag=tag-b") == true, "\(answers)")
    }
}
