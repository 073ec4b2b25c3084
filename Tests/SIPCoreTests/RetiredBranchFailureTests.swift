import CSofiaSIP
import Foundation
import Glibc
@testable import SIPCore
import Testing

/// What goes wrong for stopped INVITE branches reaches the agent's owner
/// (`SIPAgent.onRetiredBranchFailure`): branches forgotten before Timer C
/// because too many are kept, a CANCEL or ACK Sofia would not send. An agent
/// on a loop of its own, on loopback; the device is a UDP socket that never
/// answers, and the late responses are handed to the agent as Sofia would.
@Suite(.serialized) struct RetiredBranchFailureTests {
    /// Runs `body` on the thread of a started loop, with an agent listening
    /// on a free UDP port and keeping at most `capacity` stopped branches,
    /// and a silent device's port; the agent's reports are returned with what
    /// `body` returns.
    func withAgent<T: Sendable>(capacity: Int = 10_000,
                                _ body: @escaping @Sendable (SIPAgent, Int) throws -> T) async throws
        -> (T, [RetiredBranchFailure]) {
        let device = try UDPSocket()
        let port = try UDPSocket().port
        let loop = SIPLoop(name: "retired-failures")
        try loop.start()
        defer { loop.stop() }
        return try await withCheckedThrowingContinuation { continuation in
            loop.execute {
                continuation.resume(with: Result {
                    var options = SIPAgentOptions()
                    options.retiredBranchCapacity = capacity
                    let agent = try SIPAgent(loop: loop, listeners: [SIPListener(transport: .udp, host: "127.0.0.1", port: port)],
                                             options: options) { _ in }
                    defer { agent.close() }
                    let reports = Reports()
                    agent.onRetiredBranchFailure = { reports.all.append($0) }
                    let result = try body(agent, device.port)
                    return (result, reports.all)
                })
            }
        }
    }

    /// An INVITE from a caller to the device, as Sofia parses it.
    static func invite(branch: String, devicePort: Int) -> OpaquePointer? {
        parse("""
            INVITE sip:device@127.0.0.1:\(devicePort) SIP/2.0\r
            Via: SIP/2.0/UDP 127.0.0.1:5999;branch=\(branch)\r
            From: <sip:caller@localhost>;tag=caller1\r
            To: <sip:device@localhost>\r
            Call-ID: \(branch)@caller\r
            CSeq: 1 INVITE\r
            Max-Forwards: 70\r
            Contact: <sip:caller@127.0.0.1:5999>\r
            Content-Length: 0\r
            \r

            """)
    }

    /// The device's response `status` on the INVITE sent with `branch`.
    static func response(_ status: Int, branch: String) -> OpaquePointer? {
        parse("""
            SIP/2.0 \(status) Whatever\r
            Via: SIP/2.0/UDP 127.0.0.1:5999;branch=\(branch)\r
            From: <sip:caller@localhost>;tag=caller1\r
            To: <sip:device@localhost>;tag=device1\r
            Call-ID: \(branch)@caller\r
            CSeq: 1 INVITE\r
            Content-Length: 0\r
            \r

            """)
    }

    static func parse(_ text: String) -> OpaquePointer? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { msg_make(sip_default_mclass(), 0, $0.baseAddress, bytes.count) }
    }

    /// Forks an INVITE to the device and stops it at once, as a call does
    /// for a device that said nothing. (On the loop thread: no expectations here.)
    static func forkAndRetire(_ agent: SIPAgent, devicePort: Int, branch: String) throws -> Bool {
        guard let msg = invite(branch: branch, devicePort: devicePort) else { throw Missing.message }
        defer { msg_destroy(msg) }
        guard let message = SIPMessage(msg: msg), let request = ForwardedRequest(copying: message),
              let proxyBranch = agent.fork(request, route: "sip:127.0.0.1:\(devicePort);transport=udp",
                                           connection: nil, onResponse: { _, _ in })
        else { throw Missing.branch }
        return agent.retire(proxyBranch, reason: nil) { _, _ in false }
    }

    /// A stopped branch whose CANCEL and ACK go to `route`, kept by the agent.
    static func keepRetired(_ agent: SIPAgent, devicePort: Int, branch: String, route: String) throws {
        guard let msg = invite(branch: branch, devicePort: devicePort) else { throw Missing.message }
        defer { msg_destroy(msg) }
        guard let invite = SIPMessage(msg: msg), let sofia = agent.agent,
              let cancel = HopByHopRequest.make("CANCEL", from: invite, to: nil, reason: nil, agent: sofia)
        else { throw Missing.cancel }
        let retired = RetiredBranch(branch: branch.lowercased(), cancel: cancel, route: route, transport: nil,
                                    expiresAt: .now + .seconds(180), onResponse: { _, _ in false })
        agent.retiredBranches.insert(retired, now: .now)
    }

    /// Hands the agent a response to a stopped branch, as Sofia does for a
    /// response that matches no transaction.
    static func deliver(_ agent: SIPAgent, _ status: Int, branch: String) throws -> Bool {
        guard let msg = response(status, branch: branch), let message = SIPMessage(msg: msg) else {
            throw Missing.message
        }
        return agent.absorbRetired(msg, message.sip)
    }

    @Test func branchesForgottenBeforeTimerCAreReportedWithHowMany() async throws {
        let (retired, reports) = try await withAgent(capacity: 2) { agent, devicePort in
            var retired: [Bool] = []
            for n in 0..<4 {
                retired.append(try Self.forkAndRetire(agent, devicePort: devicePort, branch: "z9hG4bK-forgotten-\(n)"))
            }
            return (retired, agent.retiredBranchCount, agent.retiredBranchesForgottenEarly)
        }
        #expect(retired.0 == [true, true, true, true])
        #expect(retired.1 == 2, "kept")
        #expect(retired.2 == 2, "forgotten early")
        #expect(reports == [.forgottenEarly(count: 1), .forgottenEarly(count: 1)])
    }

    @Test func aBranchStoppedWithRoomToSpareReportsNothing() async throws {
        let (retired, reports) = try await withAgent { agent, devicePort in
            try Self.forkAndRetire(agent, devicePort: devicePort, branch: "z9hG4bK-kept")
        }
        #expect(retired)
        #expect(reports.isEmpty)
    }

    @Test func aCancelOrAckSofiaWillNotSendIsReported() async throws {
        let (absorbed, reports) = try await withAgent { agent, devicePort in
            // Sofia refuses a next hop that is not a SIP URI.
            try Self.keepRetired(agent, devicePort: devicePort, branch: "z9hG4bK-unsendable", route: "tel:+15550100")
            return [try Self.deliver(agent, 180, branch: "z9hG4bK-unsendable"),
                    try Self.deliver(agent, 486, branch: "z9hG4bK-unsendable")]
        }
        #expect(absorbed == [true, true])
        #expect(reports == [.cancelNotSent(branch: "z9hg4bk-unsendable", status: 180),
                            .ackNotSent(branch: "z9hg4bk-unsendable", status: 486)])
    }

    @Test func aCancelAndAckSentReportNothing() async throws {
        let (absorbed, reports) = try await withAgent { agent, devicePort in
            try Self.keepRetired(agent, devicePort: devicePort, branch: "z9hG4bK-sendable",
                                 route: "sip:127.0.0.1:\(devicePort);transport=udp")
            return [try Self.deliver(agent, 180, branch: "z9hG4bK-sendable"),
                    try Self.deliver(agent, 487, branch: "z9hG4bK-sendable")]
        }
        #expect(absorbed == [true, true])
        #expect(reports.isEmpty)
    }
}

private enum Missing: Error {
    case message, branch, cancel
}

/// The reports an agent made, collected on its loop.
private final class Reports: @unchecked Sendable {
    var all: [RetiredBranchFailure] = []
}

/// A UDP socket bound to a free loopback port, closed when released.
private final class UDPSocket: Sendable {
    let descriptor: Int32
    let port: Int

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = fd >= 0 && withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else {
            if fd >= 0 { close(fd) }
            throw POSIXError(.EADDRNOTAVAIL)
        }
        descriptor = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }
}
