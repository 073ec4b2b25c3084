import ArgumentParser
import Foundation
import SIPAttackSupport
import SIPFuzz

/// sip-fuzz: mutated SIP against a live server on loopback, with a liveness
/// probe; or `--replay` of saved inputs. docs/security.md tells how to use it.
@main
struct SipFuzzCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sip-fuzz",
        abstract: "Fuzz a SIP server on loopback over UDP, TCP and TLS, watching that it keeps answering.",
        discussion: """
            Exit status: 0 when the server neither crashed nor stalled, 1 when it did, 2 on a usage error.
            Only loopback targets and sources (127.0.0.0/8) are accepted. See docs/security.md.
            """
    )

    @Option(help: "The server, HOST:PORT (loopback only). Its UDP port also takes the liveness probes.")
    var target: String = "127.0.0.1:5060"

    @Option(help: "Comma-separated: udp, tcp, tls.")
    var transports: String = "udp,tcp"

    @Option(help: "Seconds of fuzzing (then one probe timeout more to watch the server).")
    var duration: Double = 60

    @Option(help: "Inputs per second, at most.")
    var rate: Double = 200

    @Option(help: "Seed of the inputs; the same seed sends the same inputs. Default: from the clock, printed.")
    var seed: UInt64?

    @Option(help: "The server's process id: exit = crash, and its VmRSS is reported.")
    var pid: Int32?

    @Option(help: "Where inputs preceding a crash or stall are saved.")
    var output: String = "var/fuzz"

    @Option(name: .customLong("tls-port"), help: "The server's TLS port (same host as --target), for the tls transport.")
    var tlsPort: Int?

    @Option(help: "Loopback address the inputs come from.")
    var from: String = "127.0.0.2"

    @Option(name: .customLong("probe-from"), help: "Loopback address of the liveness probe.")
    var probeFrom: String = "127.0.0.1"

    @Option(name: .customLong("probe-interval"), help: "Seconds between liveness probes.")
    var probeInterval: Double = 0.2

    @Option(name: .customLong("probe-timeout"), help: "Seconds within which a probe must be answered.")
    var probeTimeout: Double = 2

    @Option(help: "How many inputs before the suspects are saved as well.")
    var keep: Int = 64

    @Option(parsing: .upToNextOption, help: "Replay these saved files (NAME[.cN].udp|tcp|tls.sip) in order instead of fuzzing.")
    var replay: [String] = []

    func run() throws {
        let targetEndpoint = try LoopbackEndpoint(parsing: target)
        let tlsTarget = try tlsPort.map { try targetEndpoint.with(port: $0) }
        let source = try LoopbackEndpoint.address(from)
        let probeSource = try LoopbackEndpoint.address(probeFrom)
        if !replay.isEmpty {
            let replayer = try FuzzReplayer(target: targetEndpoint, tlsTarget: tlsTarget, source: source,
                                            probeSource: probeSource, pid: pid)
            let report = try replayer.replay(replay.map(ReplayFile.init(path:)))
            print(report.report)
            if !report.serverAlive { throw ExitCode(1) }
            return
        }
        guard let transportList = FuzzTransport.list(transports) else {
            throw ValidationError("--transports takes a comma-separated list of udp, tcp and tls")
        }
        let chosenSeed = seed ?? UInt64(Date().timeIntervalSince1970 * 1000) % 1_000_000
        let configuration = try FuzzConfiguration(
            target: targetEndpoint, tlsTarget: tlsTarget, transports: transportList, duration: duration, rate: rate,
            seed: chosenSeed, pid: pid, outputDirectory: output, source: source, probeSource: probeSource,
            probeInterval: probeInterval, probeTimeout: probeTimeout, keep: keep)
        let campaign = try FuzzCampaign(configuration)
        let start = "sip-fuzz: seed \(chosenSeed), \(transportList.map(\.rawValue).joined(separator: ",")) to \(targetEndpoint) for \(duration) s\n"
        FileHandle.standardError.write(Data(start.utf8))
        let summary = try campaign.run { partial in
            let latency = LatencyStatistics.milliseconds(partial.latency.max)
            let line = "sip-fuzz: \(Int(partial.elapsed)) s, \(partial.inputsSent) inputs, max probe latency \(latency) ms, " +
                "crashes \(partial.crashes), stalls \(partial.stalls)\n"
            FileHandle.standardError.write(Data(line.utf8))
        }
        print(summary.report)
        if !summary.passed { throw ExitCode(1) }
    }
}
