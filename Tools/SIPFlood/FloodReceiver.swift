import SIPAttackSupport

/// Counts everything that comes back to the flood's socket, by status code,
/// on its own thread until stopped.
enum FloodReceiver {
    static func run(socket: UDPSocket, counters: FloodCounters, stop: StopFlag) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !stop.isStopped {
            var count = 0
            var bytes = 0
            var statuses: [Int: Int] = [:]
            while count < 1000, let size = socket.receive(into: &buffer, timeout: count == 0 ? 0.05 : 0) {
                count += 1
                bytes += size
                statuses[status(buffer, size), default: 0] += 1
            }
            if count > 0 {
                counters.recordAnswers(count: count, bytes: bytes, statuses: statuses, at: MonotonicClock.now())
            }
        }
    }

    /// The status code of "SIP/2.0 407 ...", 0 for anything else.
    static func status(_ buffer: [UInt8], _ size: Int) -> Int {
        guard size >= 11, buffer[0] == UInt8(ascii: "S"), buffer[3] == UInt8(ascii: "/"), buffer[7] == UInt8(ascii: " ") else { return 0 }
        var code = 0
        for index in 8..<11 {
            let digit = Int(buffer[index]) - 48
            guard (0...9).contains(digit) else { return 0 }
            code = code * 10 + digit
        }
        return code
    }
}
