import Foundation

/// Builds valid seed messages. Every address in them is on loopback (the
/// fuzzer's own 127.0.0.2 and the target's domain `localhost`), so nothing
/// the server answers or forwards can leave the machine.
public enum SeedCorpus {
    /// Where the seeds say they come from; responses go to the real source
    /// anyway (`rport`, and Sofia's `received`).
    public static let sourceHost = "127.0.0.2"
    public static let sourcePort = 5999
    public static let domain = "localhost"
    static let users = ["alice", "bob", "carol", "100", "alice+1"]

    public static func draft(_ kind: SeedKind, transport: FuzzTransport, random: inout FuzzRandom) -> SIPMessageDraft {
        let from = random.pick(users)
        let to = random.pick(users)
        let cseq = random.int(in: 1...999)
        let callID = "\(random.token(16))@\(sourceHost)"
        let fromTag = random.token(8)
        let via = "SIP/2.0/\(transport.viaName) \(sourceHost):\(sourcePort);branch=z9hG4bK\(random.token(12));rport"
        let contact = "<sip:\(from)@\(sourceHost):\(sourcePort);transport=\(transport.rawValue)>"

        func request(_ method: String, uri: String, toTag: String? = nil, number: Int = cseq) -> SIPMessageDraft {
            var headers = [
                DraftHeader("Via", via),
                DraftHeader("Max-Forwards", "70"),
                DraftHeader("From", "\"\(from.capitalized)\" <sip:\(from)@\(domain)>;tag=\(fromTag)"),
                DraftHeader("To", "<sip:\(to)@\(domain)>" + (toTag.map { ";tag=\($0)" } ?? "")),
                DraftHeader("Call-ID", callID),
                DraftHeader("CSeq", "\(number) \(method)"),
                DraftHeader("User-Agent", "sip-fuzz"),
            ]
            if method != "CANCEL" && method != "ACK" && method != "BYE" { headers.append(DraftHeader("Contact", contact)) }
            headers.append(DraftHeader("Content-Length", "0"))
            return SIPMessageDraft(startLine: "\(method) \(uri) SIP/2.0", headers: headers)
        }

        func response(_ status: String, method: String) -> SIPMessageDraft {
            SIPMessageDraft(startLine: "SIP/2.0 \(status)", headers: [
                DraftHeader("Via", via),
                DraftHeader("From", "<sip:\(from)@\(domain)>;tag=\(fromTag)"),
                DraftHeader("To", "<sip:\(to)@\(domain)>;tag=\(random.token(8))"),
                DraftHeader("Call-ID", callID),
                DraftHeader("CSeq", "\(cseq) \(method)"),
                DraftHeader("Content-Length", "0"),
            ])
        }

        switch kind {
        case .register:
            var draft = request("REGISTER", uri: "sip:\(domain)")
            draft.headers.insert(DraftHeader("Expires", String(random.pick([0, 60, 3600, 86400]))), at: draft.headers.count - 1)
            draft.headers[2].value = "<sip:\(from)@\(domain)>;tag=\(fromTag)"
            draft.headers[3].value = "<sip:\(from)@\(domain)>"
            // Half of the registrations carry RFC 8599 push parameters, of
            // known and unknown services, with and without an instance id.
            if random.int(in: 0...1) == 1, let index = draft.headers.firstIndex(where: { $0.name == "Contact" }) {
                let service = random.pick(["apns", "apns.dev", "fcm", "acrobits", "webpush"])
                let prid = random.pick([random.token(64), "\(random.token(64)):voip&\(random.token(64)):remote"])
                draft.headers[index].value = "<sip:\(from)@\(sourceHost):\(sourcePort);transport=\(transport.rawValue)"
                    + ";pn-provider=\(service);pn-param=\(random.token(10)).com.example.phone.voip;pn-prid=\(prid)>"
                    + (random.int(in: 0...1) == 1 ? ";+sip.instance=\"<urn:uuid:\(random.hex(8))-0000-4000-8000-\(random.hex(12))>\"" : "")
            }
            return draft
        case .registerWithCredentials:
            var registration = Self.draft(.register, transport: transport, random: &random)
            let credentials = "Digest username=\"\(from)\", realm=\"\(domain)\", nonce=\"\(random.token(43))\", " +
                "uri=\"sip:\(domain)\", response=\"\(random.hex(32))\", algorithm=MD5, cnonce=\"\(random.hex(8))\", " +
                "qop=auth, nc=\(String(repeating: "0", count: 7))1"
            registration.headers.insert(DraftHeader("Authorization", credentials), at: registration.headers.count - 1)
            return registration
        case .invite:
            var draft = request("INVITE", uri: "sip:\(to)@\(domain)")
            draft.headers.insert(DraftHeader("Content-Type", "application/sdp"), at: draft.headers.count - 1)
            draft.headers.insert(DraftHeader("Allow", "INVITE, ACK, CANCEL, BYE, OPTIONS, MESSAGE"), at: draft.headers.count - 1)
            draft.setBody(Array(sdp(random: &random).utf8))
            return draft
        case .cancel:
            return request("CANCEL", uri: "sip:\(to)@\(domain)")
        case .ack:
            var draft = request("ACK", uri: "sip:\(to)@\(sourceHost):\(sourcePort)", toTag: random.token(8))
            if random.chance(50) {
                draft.headers.insert(DraftHeader("Route", "<sip:\(domain);lr;swk=\(random.token(24))>"), at: 1)
            }
            return draft
        case .bye:
            var draft = request("BYE", uri: "sip:\(to)@\(sourceHost):\(sourcePort)", toTag: random.token(8))
            draft.headers.insert(DraftHeader("Route", "<sip:\(domain);lr;swk=\(random.token(24))>"), at: 1)
            return draft
        case .message:
            var draft = request("MESSAGE", uri: "sip:\(to)@\(domain)")
            draft.headers.insert(DraftHeader("Content-Type", "text/plain;charset=utf-8"), at: draft.headers.count - 1)
            draft.setBody(Array("Hello \(to), are you awake?".utf8))
            return draft
        case .options:
            var draft = request("OPTIONS", uri: "sip:\(domain)")
            draft.headers.insert(DraftHeader("Accept", "application/sdp"), at: draft.headers.count - 1)
            return draft
        case .subscribe:
            var draft = request("SUBSCRIBE", uri: "sip:\(to)@\(domain)")
            draft.headers.insert(DraftHeader("Event", "presence"), at: draft.headers.count - 1)
            draft.headers.insert(DraftHeader("Expires", "600"), at: draft.headers.count - 1)
            return draft
        case .trying100:
            return response("100 Trying", method: "INVITE")
        case .ringing180:
            var draft = response("180 Ringing", method: "INVITE")
            draft.headers.insert(DraftHeader("Contact", contact), at: draft.headers.count - 1)
            return draft
        case .ok200:
            var draft = response("200 OK", method: "INVITE")
            draft.headers.insert(DraftHeader("Contact", contact), at: draft.headers.count - 1)
            draft.headers.insert(DraftHeader("Content-Type", "application/sdp"), at: draft.headers.count - 1)
            draft.setBody(Array(sdp(random: &random).utf8))
            return draft
        case .unauthorized401:
            var draft = response("401 Unauthorized", method: "REGISTER")
            draft.headers.insert(DraftHeader("WWW-Authenticate", challenge(random: &random)), at: draft.headers.count - 1)
            return draft
        case .proxyAuthentication407:
            var draft = response("407 Proxy Authentication Required", method: "INVITE")
            draft.headers.insert(DraftHeader("Proxy-Authenticate", challenge(random: &random)), at: draft.headers.count - 1)
            return draft
        case .terminated487:
            return response("487 Request Terminated", method: "INVITE")
        case .unavailable503:
            var draft = response("503 Service Unavailable", method: "INVITE")
            draft.headers.insert(DraftHeader("Retry-After", "5"), at: draft.headers.count - 1)
            return draft
        }
    }

    static func sdp(random: inout FuzzRandom) -> String {
        let session = random.int(in: 1000...999_999)
        return "v=0\r\no=- \(session) \(session) IN IP4 \(sourceHost)\r\ns=-\r\nc=IN IP4 \(sourceHost)\r\nt=0 0\r\n" +
            "m=audio \(random.int(in: 20000...40000)) RTP/AVP 0 8 101\r\na=rtpmap:0 PCMU/8000\r\na=rtpmap:8 PCMA/8000\r\n" +
            "a=rtpmap:101 telephone-event/8000\r\na=fmtp:101 0-16\r\na=sendrecv\r\n"
    }

    static func challenge(random: inout FuzzRandom) -> String {
        "Digest realm=\"\(domain)\", nonce=\"\(random.token(43))\", algorithm=MD5, qop=\"auth\""
    }
}
