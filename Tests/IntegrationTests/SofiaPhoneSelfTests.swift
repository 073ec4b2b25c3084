import Foundation
import XCTest

/// The test phones against each other over loopback (no sipwake in between),
/// and their registration against a real sipwake.
final class SofiaPhoneSelfTests: IntegrationTestCase {
    private func answeredCall(transport: String) async throws {
        let a = try await startPhone("pbx", transport: transport)
        let b = try await startPhone("bob", transport: transport)
        let bContact = await b.contactURI
        if transport == "tcp" { XCTAssertTrue(bContact.hasSuffix(";transport=tcp"), bContact) }

        // The Request-URI names a domain nobody resolves: only the proxy setting can deliver it.
        let call = await a.invite("sip:bob@callee.invalid", via: bContact, headers: [("X-Push-ID", "abc")])
        let maybeIncoming = await b.waitForInvite(timeout: .seconds(10))
        let incoming = try XCTUnwrap(maybeIncoming)
        XCTAssertEqual(incoming.header("X-Push-ID"), "abc")
        XCTAssertEqual(incoming.requestURI, "sip:bob@callee.invalid")
        XCTAssertFalse(incoming.callID.isEmpty)
        XCTAssertTrue(incoming.from.contains("sip:pbx@callee.invalid"), incoming.from)
        XCTAssertEqual(incoming.header("Content-Type"), "application/sdp")
        XCTAssertEqual(incoming.header("Max-Forwards"), "70")
        XCTAssertFalse(incoming.headers["Via"].isEmpty)
        XCTAssertTrue(incoming.text.hasPrefix("INVITE sip:bob@callee.invalid SIP/2.0\r\n"), incoming.text)
        let invites = await b.invitesReceived()
        XCTAssertEqual(invites, 1)

        await b.respond(incoming, status: 180)
        let ringing = await a.waitForResponse(call, atLeast: 180, timeout: .seconds(10))
        XCTAssertEqual(ringing?.status, 180)
        XCTAssertEqual(ringing?.header("Call-ID"), incoming.callID)

        await b.respond(incoming, status: 200)
        let answer = await a.waitForResponse(call, atLeast: 200, timeout: .seconds(10))
        XCTAssertEqual(answer?.status, 200)
        XCTAssertEqual(answer?.header("Content-Type"), "application/sdp")
        XCTAssertTrue(answer?.text.contains("m=audio") ?? false)
        let ack = await b.waitForEvent(incoming, timeout: .seconds(10))
        XCTAssertEqual(ack, .ack)

        await assertHangUp(a, call, reaches: b, incoming, timeout: .seconds(10))
        let afterBye = await b.waitForEvent(incoming, timeout: .seconds(10))
        XCTAssertEqual(afterBye, .bye)
    }

    func testAnsweredCallOverUDP() async throws {
        try await answeredCall(transport: "udp")
    }

    func testAnsweredCallOverTCP() async throws {
        try await answeredCall(transport: "tcp")
    }

    /// A calls B directly (B's own address is the proxy); B has the INVITE.
    private func directCall() async throws -> (SofiaPhone, SofiaPhone, SofiaPhoneOutgoingCall, SofiaPhoneIncomingCall) {
        let a = try await startPhone("pbx")
        let b = try await startPhone("bob")
        let bContact = await b.contactURI
        let call = await a.invite(bContact, via: bContact)
        let incoming = await b.waitForInvite(timeout: .seconds(10))
        return (a, b, call, try XCTUnwrap(incoming))
    }

    func testCalleeHangsUp() async throws {
        let (a, b, call, incoming) = try await directCall()
        await b.respond(incoming, status: 200)
        let answer = await a.waitForResponse(call, atLeast: 200, timeout: .seconds(10))
        XCTAssertEqual(answer?.status, 200)
        await assertHangUp(b, incoming, reaches: a, call, timeout: .seconds(10))
    }

    func testCancelCarriesReason() async throws {
        let (a, b, call, incoming) = try await directCall()
        await b.respond(incoming, status: 180)
        let ringing = await a.waitForResponse(call, atLeast: 180, timeout: .seconds(10))
        XCTAssertEqual(ringing?.status, 180)

        let reason = "SIP;cause=200;text=\"Call completed elsewhere\""
        await a.cancel(call, reason: reason)
        let event = await b.waitForEvent(incoming, timeout: .seconds(10))
        guard case .cancelled(let received) = event else { return XCTFail("expected a CANCEL, got \(String(describing: event))") }
        XCTAssertEqual(received, reason)
        let final = await a.waitForResponse(call, atLeast: 200, timeout: .seconds(10))
        XCTAssertEqual(final?.status, 487)
    }

    func testDeclineReachesCaller() async throws {
        let (a, b, call, incoming) = try await directCall()
        await b.respond(incoming, status: 603)
        let final = await a.waitForResponse(call, atLeast: 200, timeout: .seconds(10))
        XCTAssertEqual(final?.status, 603)
        XCTAssertEqual(final?.reason, "Decline")
        let event = await b.waitForEvent(incoming, timeout: .seconds(10))
        XCTAssertEqual(event, .terminated)
    }

    func testMessageIsReceivedAndAnswered() async throws {
        let b = try await startPhone("bob")
        let bContact = await b.contactURI
        let sender = try await makeUA(proxy: bContact)

        let response = await sender.send(
            method: "MESSAGE", uri: bContact, from: "<sip:sipwake@127.0.0.1>;tag=m1", to: "<\(bContact)>",
            callID: UUID().uuidString, cseq: 1,
            extraHeaders: [("Content-Type", "application/x-acro-missed-call"), ("X-Push-ID", "push-42")])
        XCTAssertEqual(response.status, 200)
        let maybeMessage = await b.waitForMessage(timeout: .seconds(10))
        let message = try XCTUnwrap(maybeMessage)
        XCTAssertEqual(message.contentType, "application/x-acro-missed-call")
        XCTAssertEqual(message.header("X-Push-ID"), "push-42")
        XCTAssertEqual(message.requestURI, bContact)
    }

    func testNothingArrivesMeansNil() async throws {
        let b = try await startPhone("bob")
        let invite = await b.waitForInvite(timeout: .milliseconds(200))
        XCTAssertNil(invite)
        let message = await b.waitForMessage(timeout: .milliseconds(200))
        XCTAssertNil(message)
    }

    private func registersThroughSipwake(algorithms: [String], transport: String) async throws {
        let server = try await startServer(authAlgorithms: algorithms)
        let phone = try await startPhone("alice", transport: transport)
        let first = await phone.register(registrar: server.proxy(transport), user: "alice", password: "alice-secret",
                                         instanceID: "6f1f1f1f-0000-4000-8000-000000000001",
                                         uriParams: ";pn-provider=acrobits;pn-prid=TOKEN1")
        let firstResponses = await phone.registerResponses()
        XCTAssertEqual(first, 200, firstResponses.map { "\($0.status) \($0.reason)\n\($0.text)" }.joined(separator: "\n---\n"))
        let afterFirst = await phone.registerRequestsSent()
        XCTAssertEqual(afterFirst, 2, "one challenged REGISTER and one with credentials")

        let refresh = await phone.register(registrar: server.proxy(transport), user: "alice", password: "alice-secret",
                                           instanceID: "6f1f1f1f-0000-4000-8000-000000000001",
                                           uriParams: ";pn-provider=acrobits;pn-prid=TOKEN1")
        XCTAssertEqual(refresh, 200)
        let finals = await phone.registerResponses().filter { $0.status == 200 }
        guard finals.count == 2 else { return XCTFail("expected two 200 responses, got \(finals.count)") }
        XCTAssertEqual(finals[0].header("Call-ID"), finals[1].header("Call-ID"))
        let firstCSeq = Int(finals[0].header("CSeq")?.split(separator: " ").first ?? "") ?? 0
        let secondCSeq = Int(finals[1].header("CSeq")?.split(separator: " ").first ?? "") ?? 0
        XCTAssertGreaterThan(secondCSeq, firstCSeq)
        let contact = finals[1].header("Contact") ?? ""
        XCTAssertTrue(contact.contains("pn-prid=TOKEN1"), contact)
        XCTAssertTrue(contact.contains("+sip.instance"), contact)

        let wrong = try await startPhone("mallory", transport: transport)
        let refused = await wrong.register(registrar: server.proxy(transport), user: "bob", password: "not-bob")
        XCTAssertNotEqual(refused, 200)
    }

    func testRegistersThroughSipwakeWithSHA256() async throws {
        try await registersThroughSipwake(algorithms: ["SHA-256", "MD5"], transport: "udp")
    }

    func testRegistersThroughSipwakeWithMD5OverTCP() async throws {
        try await registersThroughSipwake(algorithms: ["MD5"], transport: "tcp")
    }
}
