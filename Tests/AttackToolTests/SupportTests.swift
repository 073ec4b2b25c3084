import Foundation
import SIPAttackSupport
import SIPFlood
import SIPFuzz
import Testing

@Suite struct SupportTests {
    @Test func percentilesAreNearestRank() {
        let stats = LatencyStatistics((1...100).map(Double.init).shuffled())
        #expect(stats.count == 100)
        #expect(stats.median == 50)
        #expect(stats.p90 == 90)
        #expect(stats.p99 == 99)
        #expect(stats.max == 100)
        #expect(LatencyStatistics([]).millisecondsText == "- / - / - / -")
        #expect(LatencyStatistics([0.0015]).millisecondsText == "1.50 / 1.50 / 1.50 / 1.50")
    }

    @Test func memoryTrackKeepsStartPeakAndEnd() {
        var track = MemoryTrack()
        #expect(track.summary == "not measured (no --pid)")
        for bytes in [10 << 20, 30 << 20, nil, 20 << 20] { track.record(bytes) }
        #expect(track.start == 10 << 20)
        #expect(track.peak == 30 << 20)
        #expect(track.end == 20 << 20)
        #expect(track.growth == 10 << 20)
        #expect(track.summary == "start 10.0 MiB, peak 30.0 MiB, end 20.0 MiB")
    }

    @Test func responsesAreCountedAtLineStarts() {
        let bytes = Array("SIP/2.0 200 OK\r\nVia: x\r\n\r\nSIP/2.0 413 Too Large\r\nX: SIP/2.0 1\r\n\r\n".utf8)
        #expect(ResponseCounter.count(bytes) == 2)
        #expect(ResponseCounter.count([]) == 0)
    }

    @Test func rawMessagesGiveStatusAndHeaders() {
        let message = RawSIPMessage(text: "SIP/2.0 401 Unauthorized\r\ni: abc\r\nCSeq: 7 REGISTER\r\n" +
            "WWW-Authenticate: Digest realm=\"a\"\r\nwww-authenticate: Digest realm=\"b\"\r\n\r\n")
        #expect(message.statusCode == 401)
        #expect(message.callID == "abc")
        #expect(message.cseqNumber == 7)
        #expect(message.headers("WWW-Authenticate").count == 2)
        #expect(RawSIPMessage(text: "OPTIONS sip:x SIP/2.0\r\n\r\n").statusCode == nil)
    }

    @Test func udpCountersParse() {
        let text = """
            Ip: Forwarding DefaultTTL
            Ip: 1 64
            Udp: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors SndbufErrors InCsumErrors IgnoredMulti MemErrors
            Udp: 1000 2 3 900 17 0 0 0 0
            UdpLite: InDatagrams NoPorts
            UdpLite: 0 0
            """
        #expect(UDPCounters.parse(text) == UDPCounters(inDatagrams: 1000, receiveBufferErrors: 17))
    }

    @Test func floodInvitesAreEachNewAndWellFramed() throws {
        let builder = FloodInviteBuilder(source: "127.0.0.3", port: 40000, callee: "alice", domain: "localhost", run: "r1")
        let first = RawSIPMessage(builder.invite(1))
        let second = RawSIPMessage(builder.invite(2))
        #expect(first.text.hasPrefix("INVITE sip:alice@localhost SIP/2.0\r\n"))
        #expect(first.callID != second.callID)
        #expect(first.headers("Via") != second.headers("Via"))
        #expect(first.headers("Via").first?.hasPrefix("SIP/2.0/UDP 127.0.0.3:40000;rport;branch=z9hG4bK-") == true)
        let parts = first.text.components(separatedBy: "\r\n\r\n")
        #expect(parts.count == 2)
        #expect(first.headers("Content-Length").first == String(parts[1].utf8.count))
        #expect(first.headers("Authorization").isEmpty && first.headers("Proxy-Authorization").isEmpty)
    }
}
