import XCTest

/// Calls to phones that registered through the Kamailio edge.
extension IntegrationTestCase {
    /// `incoming` reached the phone through `edge` from `node`: the last hop
    /// (top Via) is the edge and the one before it the node; the edge
    /// consumed the Route the binding's Path became, and the edge and the
    /// node stay in the dialog (Record-Route, the edge's first).
    func assertReached(_ incoming: SofiaPhoneIncomingCall, through edge: KamailioEdge, from node: SipwakeProcess,
                       file: StaticString = #filePath, line: UInt = #line) {
        let vias = Self.hops(incoming.headers["Via"])
        XCTAssertTrue(vias.first?.contains("\(edge.host):\(edge.port)") == true,
                      "the last hop was the edge: \(incoming.text)", file: file, line: line)
        XCTAssertTrue(vias.dropFirst().first?.contains("127.0.0.1:\(node.port)") == true,
                      "the edge had it from node :\(node.port): \(incoming.text)", file: file, line: line)
        XCTAssertNil(incoming.header("Route"), "the edge consumed the Path's Route: \(incoming.text)", file: file, line: line)
        let recordRoutes = Self.hops(incoming.headers["Record-Route"])
        XCTAssertTrue(recordRoutes.first?.contains("\(edge.host):\(edge.port)") == true,
                      "the edge stays in the dialog: \(incoming.text)", file: file, line: line)
        XCTAssertTrue(recordRoutes.dropFirst().contains { $0.contains(":\(node.port)") },
                      "node :\(node.port) stays in the dialog: \(incoming.text)", file: file, line: line)
    }

    /// `phone` answers `incoming`: the PBX gets the 200 of `outgoing`, the
    /// phone the PBX's ACK (through the node and the edge); then the phone
    /// (`phoneHangsUp`) or the PBX hangs up, and the other side gets the BYE.
    func assertAnsweredAndHungUp(_ phone: SofiaPhone, _ incoming: SofiaPhoneIncomingCall, pbx: SofiaPhone,
                                 _ outgoing: SofiaPhoneOutgoingCall, phoneHangsUp: Bool,
                                 file: StaticString = #filePath, line: UInt = #line) async {
        await phone.respond(incoming, status: 200)
        let answer = await pbx.waitForResponse(outgoing, atLeast: 200, timeout: .seconds(5))
        XCTAssertEqual(answer?.status, 200, file: file, line: line)
        let ack = await phone.waitForEvent(incoming, timeout: .seconds(5))
        XCTAssertEqual(ack, .ack, "the PBX's ACK came through sipwake and the edge", file: file, line: line)
        if phoneHangsUp {
            await assertHangUp(phone, incoming, reaches: pbx, outgoing, file: file, line: line)
        } else {
            await assertHangUp(pbx, outgoing, reaches: phone, incoming, file: file, line: line)
        }
    }

    /// The hops of a header's values (`Via: a, b` on one line counts twice), top first.
    private static func hops(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
    }
}
