import Foundation
import SIPAttackSupport

/// One fuzzing run against a live server: inputs at the configured rate
/// over the chosen transports, while `LivenessMonitor` probes the server on
/// its own thread. A crash ends the run; a stall pauses the inputs until the
/// server answers again. Either saves the suspects with `CrashArchive`.
public struct FuzzCampaign {
    public let configuration: FuzzConfiguration

    public init(_ configuration: FuzzConfiguration) throws {
        if configuration.transports.contains(.tls) && configuration.tlsTarget == nil { throw FuzzError.tlsPortMissing }
        guard configuration.duration > 0, configuration.duration <= 86400 else {
            throw FuzzError.badSetting("the duration must be from 0 to 86400 seconds")
        }
        guard configuration.rate > 0 else { throw FuzzError.badSetting("the rate must be above 0") }
        try FuzzConfiguration.check(keep: configuration.keep)
        guard configuration.probeInterval > 0, configuration.probeTimeout > 0 else {
            throw FuzzError.badSetting("the probe interval and timeout must be above 0")
        }
        self.configuration = configuration
    }

    /// Runs to the end (or the first crash). `progress` gets a summary so far
    /// about every 30 s, on the calling thread.
    public func run(progress: ((FuzzSummary) -> Void)? = nil) throws -> FuzzSummary {
        let c = configuration
        let board = LivenessBoard()
        let stop = StopFlag()
        let process = c.pid.map(TargetProcess.init)
        let monitor = LivenessMonitor(target: c.target, source: c.probeSource, interval: c.probeInterval,
                                      timeout: c.probeTimeout, process: process)
        var sender = try InputSender(configuration: c)
        var summary = FuzzSummary(configuration: c)
        var history = InputHistory(keepBefore: c.keep)
        var generator = FuzzInputGenerator(seed: c.seed, transports: c.transports)
        var savedStalls = 0
        var start = MonotonicClock.now()

        func handle(_ events: [FuzzEvent]) {
            for event in events {
                let offset = String(format: "%+.1f s", event.at - start)
                summary.events.append("\(event.kind.rawValue) at \(offset): \(event.reason)")
                switch event.kind {
                case .crash:
                    summary.crashes += 1
                case .stall:
                    summary.stalls += 1
                    savedStalls += 1
                    if savedStalls > c.maximumSavedStalls { continue }
                case .recovered:
                    continue
                }
                let inputs = history.window(since: event.lastAnsweredProbeSentAt)
                do {
                    let folder = try CrashArchive(directory: c.outputDirectory)
                        .save(event: event, inputs: inputs, configuration: c, index: summary.saved.count + 1)
                    summary.saved.append(folder)
                } catch {
                    summary.events.append("the inputs could not be saved: \(error)")
                }
            }
        }

        try ScopedThreads.run([(name: "sip-fuzz-liveness", body: { monitor.run(board: board, stop: stop) })], stop: stop.stop) {
            // The server must answer before the first input.
            let deadline = MonotonicClock.now() + c.probeTimeout + 1
            while board.snapshot.probesAnswered == 0 {
                if board.isCrashed || MonotonicClock.now() > deadline { throw FuzzError.targetSilent(c.target) }
                MonotonicClock.sleep(seconds: 0.02)
            }
            start = MonotonicClock.now()
            let end = start + c.duration
            var nextSend = start
            var nextProgress = start + 30
            var lastSent = start
            while MonotonicClock.now() < end {
                handle(board.takeEvents())
                if board.isCrashed { break }
                if board.isStalled {
                    sender.drain()
                    MonotonicClock.sleep(seconds: c.probeInterval / 2)
                    nextSend = MonotonicClock.now()
                    continue
                }
                let input = generator.next()
                MonotonicClock.sleep(until: nextSend)
                lastSent = MonotonicClock.now()
                sender.send(input)
                history.append(input, sentAt: lastSent)
                sender.drain()
                nextSend = max(nextSend + 1 / c.rate, MonotonicClock.now() - 0.1)
                if let progress, MonotonicClock.now() >= nextProgress {
                    nextProgress += 30
                    var partial = summary
                    partial.elapsed = MonotonicClock.now() - start
                    partial.transports = sender.counts
                    partial.liveness = board.snapshot
                    progress(partial)
                }
            }
            summary.elapsed = MonotonicClock.now() - start
            // The last inputs get a full probe timeout to stall or crash the server.
            let settle = lastSent + c.probeTimeout + 2 * c.probeInterval
            while MonotonicClock.now() < settle && !board.isCrashed {
                handle(board.takeEvents())
                sender.drain()
                MonotonicClock.sleep(seconds: 0.05)
            }
        }
        handle(board.takeEvents())
        if let process, process.isAlive { board.recordMemory(process.residentBytes) }
        summary.transports = sender.counts
        summary.liveness = board.snapshot
        summary.refusedAsUnsafe = generator.refusedAsUnsafe
        return summary
    }
}
