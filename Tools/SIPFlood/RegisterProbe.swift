import SIPAttackSupport

/// The legitimate client's thread: a REGISTER exchange every
/// `probeInterval`, each recorded with the phase it started in, and the
/// target's memory sampled before each. Unregisters when stopped.
public struct RegisterProbe: Sendable {
    public let configuration: FloodConfiguration
    public let run: String

    public init(configuration: FloodConfiguration, run: String) {
        self.configuration = configuration
        self.run = run
    }

    public func run(phase: FloodPhaseSwitch, recorder: ProbeRecorder, stop: StopFlag) {
        guard let socket = try? UDPSocket(source: configuration.probeSource, target: configuration.target) else {
            recorder.add(ProbeSample(phase: phase.current, outcome: .failed(0), withCredentials: nil, wholeExchange: nil, retransmissions: 0))
            return
        }
        let process = configuration.pid.map(TargetProcess.init)
        var client = RegisterClient(socket: socket, configuration: configuration, run: run)
        var next = MonotonicClock.now()
        while !stop.isStopped {
            MonotonicClock.sleep(until: next)
            if stop.isStopped { break }
            next = max(next + configuration.probeInterval, MonotonicClock.now())
            if let process { recorder.recordMemory(process.residentBytes) }
            let started = phase.current
            let result = client.exchange(expires: 3600)
            recorder.add(ProbeSample(phase: started, outcome: result.outcome, withCredentials: result.withCredentials,
                                     wholeExchange: result.whole, retransmissions: result.retransmissions))
        }
        _ = client.exchange(expires: 0)
    }
}
