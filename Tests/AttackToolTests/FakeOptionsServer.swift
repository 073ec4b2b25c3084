import Glibc
import SIPAttackSupport
import Synchronization

/// A stand-in for sipwake on a UDP loopback port: answers the liveness
/// probes (200 with their Call-ID) until told to go silent, or closes its
/// port, so that the fuzzer's stall and crash detection can be tested.
final class FakeOptionsServer: Sendable {
    enum Behaviour: Int {
        case answering, silent, closed
    }

    let port: Int
    private let fd: Int32
    private let behaviour = Atomic<Int>(Behaviour.answering.rawValue)
    let received = Atomic<Int>(0)

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw AttackToolError.socket(call: "bind", errno: errno) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        self.fd = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func set(_ next: Behaviour) { behaviour.store(next.rawValue, ordering: .releasing) }

    /// Serves until `stop`; closes the port when told to.
    func run(stop: StopFlag) {
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !stop.isStopped {
            if behaviour.load(ordering: .acquiring) == Behaviour.closed.rawValue { return }
            var pollDescriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pollDescriptor, 1, 20) > 0 else { continue }
            var peer = sockaddr_in()
            var peerLength = socklen_t(MemoryLayout<sockaddr_in>.size)
            let count = withUnsafeMutablePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(fd, &buffer, buffer.count, 0, $0, &peerLength) }
            }
            guard count > 0 else { continue }
            received.add(1, ordering: .relaxed)
            guard behaviour.load(ordering: .acquiring) == Behaviour.answering.rawValue,
                  let callID = RawSIPMessage(Array(buffer[0..<count])).callID, callID.hasPrefix("live-") else { continue }
            let answer = Array("SIP/2.0 200 OK\r\nCall-ID: \(callID)\r\nCSeq: 1 OPTIONS\r\nContent-Length: 0\r\n\r\n".utf8)
            _ = withUnsafePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(fd, answer, answer.count, 0, $0, peerLength) }
            }
        }
    }
}
