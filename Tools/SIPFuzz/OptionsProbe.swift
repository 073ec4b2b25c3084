import SIPAttackSupport

/// The liveness probe: an OPTIONS over UDP from its own socket, which sipwake
/// answers with 200 whatever else it is doing.
public enum OptionsProbe {
    /// The request, and the Call-ID its answer will carry.
    public static func request(number: Int, nonce: String, socket: UDPSocket, source: LoopbackEndpoint,
                               target: LoopbackEndpoint) -> (callID: String, bytes: [UInt8]) {
        let callID = "live-\(number)-\(nonce)@sip-fuzz"
        let text = "OPTIONS sip:\(target.host):\(target.port) SIP/2.0\r\n" +
            "Via: SIP/2.0/UDP \(source.host):\(socket.localPort);branch=z9hG4bK-live-\(number)-\(nonce);rport\r\n" +
            "Max-Forwards: 70\r\n" +
            "From: <sip:liveness@\(source.host)>;tag=live\(number)\r\n" +
            "To: <sip:\(target.host):\(target.port)>\r\n" +
            "Call-ID: \(callID)\r\n" +
            "CSeq: 1 OPTIONS\r\n" +
            "Content-Length: 0\r\n\r\n"
        return (callID, Array(text.utf8))
    }

    /// One probe, retransmitted at 0.5 s and 1.5 s like any UDP client:
    /// the latency of its answer, or nil when none came within `timeout`.
    public static func once(source: LoopbackEndpoint, target: LoopbackEndpoint, timeout: Double = 2) -> Double? {
        guard let socket = try? UDPSocket(source: source, target: target) else { return nil }
        let nonce = String(UInt32.random(in: 0...UInt32.max), radix: 36)
        let (callID, bytes) = request(number: 0, nonce: nonce, socket: socket, source: source, target: target)
        let start = MonotonicClock.now()
        var nextSend = start
        var interval = 0.5
        while MonotonicClock.now() - start < timeout {
            let now = MonotonicClock.now()
            if now >= nextSend {
                socket.send(bytes)
                nextSend = now + interval
                interval *= 2
            }
            let wait = min(nextSend, start + timeout) - MonotonicClock.now()
            if case .datagram(let answer) = socket.receive(timeout: max(0, wait)), RawSIPMessage(answer).callID == callID {
                return MonotonicClock.now() - start
            }
        }
        return nil
    }
}
