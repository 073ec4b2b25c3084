import SIPFuzz
import Testing

/// sipwake forwards a stray 2xx to INVITE to the second Via: the fuzzer must
/// never send one that could name a host off the machine.
@Suite struct OutboundSafetyTests {
    static func response(_ status: String, method: String = "INVITE", vias: [String]) -> [UInt8] {
        var text = "\(status)\r\n"
        for via in vias { text += "Via: \(via)\r\n" }
        text += "From: <sip:a@localhost>;tag=1\r\nTo: <sip:b@localhost>;tag=2\r\nCall-ID: x\r\nCSeq: 1 \(method)\r\nContent-Length: 0\r\n\r\n"
        return Array(text.utf8)
    }

    static let two = ["SIP/2.0/UDP 127.0.0.2:5999;branch=z9hG4bK1", "SIP/2.0/UDP 107.0.0.2:5999;branch=z9hG4bK2"]

    @Test func twoXXToInviteWithASecondViaIsRefused() {
        #expect(!OutboundSafety.isSafe(Self.response("SIP/2.0 200 OK", vias: Self.two)))
        #expect(!OutboundSafety.isSafe(Self.response("SIP/2.0 202 Accepted", vias: Self.two)))
    }

    @Test(arguments: ["sip/2.0 200 OK", "  SIP/2.0 200 OK", "SIP/2.0   200 OK", "SIP/2.0 +200 OK", "SIP/2.1 200 OK", "SIP/2.0 0200 OK"])
    func looseStatusLinesAreRefusedToo(status: String) {
        #expect(!OutboundSafety.isSafe(Self.response(status, vias: Self.two)))
    }

    @Test(arguments: [
        "Via: SIP/2.0/UDP 127.0.0.2:5999, SIP/2.0/UDP 8.8.8.8",
        "v: SIP/2.0/UDP 127.0.0.2:5999\r\nv : SIP/2.0/UDP 8.8.8.8",
        "VIA: SIP/2.0/UDP 127.0.0.2:5999\r\n ,SIP/2.0/UDP 8.8.8.8",
        "Via: SIP/2.0/UDP 127.0.0.2:5999\r\n\tx\r\nVia: SIP/2.0/UDP 8.8.8.8",
    ])
    func everyWayOfWritingTwoViasCounts(vias: String) {
        let text = "SIP/2.0 200 OK\r\n\(vias)\r\nCSeq: 1 INVITE\r\n\r\n"
        #expect(!OutboundSafety.isSafe(Array(text.utf8)))
    }

    @Test func whatIsNeverForwardedIsSent() {
        #expect(OutboundSafety.isSafe(Self.response("SIP/2.0 200 OK", vias: [Self.two[0]])))
        #expect(OutboundSafety.isSafe(Self.response("SIP/2.0 180 Ringing", vias: Self.two)))
        #expect(OutboundSafety.isSafe(Self.response("SIP/2.0 487 Request Terminated", vias: Self.two)))
        #expect(OutboundSafety.isSafe(Self.response("SIP/2.0 200 OK", method: "REGISTER", vias: Self.two)))
        let deepRequest = "INVITE sip:alice@localhost SIP/2.0\r\n" + String(repeating: "Via: SIP/2.0/UDP 127.0.0.9\r\n", count: 50) + "\r\n"
        #expect(OutboundSafety.isSafe(Array(deepRequest.utf8)))
    }
}
