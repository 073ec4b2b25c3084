import SIPAttackSupport

/// A well-behaved UDP phone: REGISTERs on one Call-ID with rising CSeq,
/// retransmitted at 0.5 s and 1.5 s, answering a 401 with MD5 digest
/// credentials (qop=auth, nc counting the uses of each nonce).
struct RegisterClient {
    let socket: UDPSocket
    let configuration: FloodConfiguration
    let callID: String
    let tag: String
    private var cseq = 0
    private var nonce: String?
    private var nonceUses = 0
    private let credentials: DigestAuthorization

    init(socket: UDPSocket, configuration: FloodConfiguration, run: String) {
        self.socket = socket
        self.configuration = configuration
        callID = "probe-\(run)@sip-flood"
        tag = "p\(run)"
        credentials = DigestAuthorization(username: configuration.user, password: configuration.password)
    }

    /// REGISTER, its 401, REGISTER with credentials, its final response.
    mutating func exchange(expires: Int) -> (outcome: ProbeOutcome, withCredentials: Double?, whole: Double?, retransmissions: Int) {
        let start = MonotonicClock.now()
        let first = transaction(authorization: nil, expires: expires)
        var retransmissions = first.retransmissions
        guard let challengeAnswer = first.response, let status = challengeAnswer.statusCode else {
            return (.timedOut, nil, nil, retransmissions)
        }
        if status == 200 {
            // Authentication switched off: there was nothing to answer.
            return (.registered, nil, MonotonicClock.now() - start, retransmissions)
        }
        guard status == 401 else { return (.failed(status), nil, nil, retransmissions) }
        let challenges = challengeAnswer.headers("WWW-Authenticate").compactMap(DigestChallengeFields.init(header:))
        guard let challenge = challenges.first(where: { $0.algorithm.uppercased() == "MD5" }) else {
            return (.failed(401), nil, nil, retransmissions)
        }
        if challenge.nonce == nonce {
            nonceUses += 1
        } else {
            nonce = challenge.nonce
            nonceUses = 1
        }
        let uri = "sip:\(configuration.domain)"
        let cnonce = "\(tag)\(cseq)"
        let header = credentials.header(challenge: challenge, method: "REGISTER", uri: uri, nc: nonceUses, cnonce: cnonce)
        let sentWithCredentials = MonotonicClock.now()
        let second = transaction(authorization: header, expires: expires)
        retransmissions += second.retransmissions
        let end = MonotonicClock.now()
        guard let final = second.response, let finalStatus = final.statusCode else {
            return (.timedOut, nil, nil, retransmissions)
        }
        guard finalStatus == 200 else { return (.failed(finalStatus), nil, nil, retransmissions) }
        return (.registered, end - sentWithCredentials, end - start, retransmissions)
    }

    /// One non-INVITE client transaction: the final response, or nil after
    /// the timeout.
    private mutating func transaction(authorization: String?, expires: Int) -> (response: RawSIPMessage?, retransmissions: Int) {
        cseq += 1
        let number = cseq
        let source = configuration.probeSource.host
        var text = "REGISTER sip:\(configuration.domain) SIP/2.0\r\n" +
            "Via: SIP/2.0/UDP \(source):\(socket.localPort);rport;branch=z9hG4bK-reg-\(number)-\(tag)\r\n" +
            "Max-Forwards: 70\r\n" +
            "From: <sip:\(configuration.user)@\(configuration.domain)>;tag=\(tag)\r\n" +
            "To: <sip:\(configuration.user)@\(configuration.domain)>\r\n" +
            "Call-ID: \(callID)\r\n" +
            "CSeq: \(number) REGISTER\r\n" +
            "Contact: <sip:\(configuration.user)@\(source):\(socket.localPort)>\r\n" +
            "Expires: \(expires)\r\n"
        if let authorization { text += "Authorization: \(authorization)\r\n" }
        text += "User-Agent: sip-flood probe\r\nContent-Length: 0\r\n\r\n"
        let bytes = Array(text.utf8)
        let start = MonotonicClock.now()
        let deadline = start + configuration.probeTimeout
        var nextRetransmission = start + 0.5
        var backoff = 1.0
        var retransmissions = 0
        socket.send(bytes)
        while true {
            let now = MonotonicClock.now()
            if now >= deadline { return (nil, retransmissions) }
            if now >= nextRetransmission {
                socket.send(bytes)
                retransmissions += 1
                nextRetransmission = now + backoff
                backoff *= 2
            }
            let wait = min(nextRetransmission, deadline) - MonotonicClock.now()
            guard case .datagram(let answer) = socket.receive(timeout: max(0, wait)) else { continue }
            let message = RawSIPMessage(answer)
            guard message.callID == callID, message.cseqNumber == number, let status = message.statusCode, status >= 200 else { continue }
            return (message, retransmissions)
        }
    }
}
