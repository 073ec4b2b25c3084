import ArgumentParser
import AttackCommandLine
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
            The liveness probes go to the UDP port of --target; after --duration the run watches the server \
            for one --probe-timeout more.
            Exit status: 0 when the server neither crashed nor stalled, 1 when it did, 2 when the run could not \
            be done (a usage or setup error: a bad option, a non-loopback address, a target that does not answer; \
            one line on stderr says which).
            Only loopback targets and sources (127.0.0.0/8) are accepted. See docs/security.md.
            """
    )

    @OptionGroup var attack: AttackOptions<FuzzProfile>

    /// Exits 0, 1 or 2 as `AttackToolExit` says.
    static func main() { runAttackTool() }

    @Option(help: "Comma-separated: udp, tcp, tls.")
    var transports: String = "udp,tcp"

    @Option(help: "Seed of the inputs; the same seed sends the same inputs. Default: from the clock, printed.")
    var seed: UInt64?

    @Option(help: "The server's process id: exit = crash, and its VmRSS is reported.")
    var pid: Int32?

    @Option(help: "Where inputs preceding a crash or stall are saved.")
    var output: String = "var/fuzz"

    @Option(name: .customLong("tls-port"), help: "The server's TLS port (same host as --target), for the tls transport.")
    var tlsPort: Int?

    @Option(help: "How many inputs before the suspects are saved as well.")
    var keep: Int = 64

    @Option(parsing: .upToNextOption, help: "Replay these saved files (NAME[.cN].udp|tcp|tls.sip) in order instead of fuzzing.")
    var replay: [String] = []

    func run() throws {
        let targetEndpoint = try attack.targetEndpoint()
        let tlsTarget = try tlsPort.map { try targetEndpoint.with(port: $0) }
        let source = try attack.source()
        let probeSource = try attack.probeSource()
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
            target: targetEndpoint, tlsTarget: tlsTarget, transports: transportList, duration: attack.duration, rate: attack.rate,
            seed: chosenSeed, pid: pid, outputDirectory: output, source: source, probeSource: probeSource,
            probeInterval: attack.probeInterval, probeTimeout: attack.probeTimeout, keep: keep)
        let campaign = try FuzzCampaign(configuration)
        let start = "sip-fuzz: seed \(chosenSeed), \(transportList.map(\.rawValue).joined(separator: ",")) to \(targetEndpoint) for \(attack.duration) s\n"
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
