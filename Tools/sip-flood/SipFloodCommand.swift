import ArgumentParser
import AttackCommandLine
import Foundation
import SIPAttackSupport
import SIPFlood

/// sip-flood: unauthenticated INVITEs over UDP at a high rate, while a
/// legitimate client registers with digest credentials and times its
/// answers. docs/security.md tells how to use it.
@main
struct SipFloodCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sip-flood",
        abstract: "Flood a SIP server on loopback with unauthenticated INVITEs and measure what a legitimate client sees.",
        discussion: """
            Prints one Markdown block for docs/benchmarks.md. Exit status: 0 after a run, 2 when the run could \
            not be done (a usage or setup error: a bad option, a non-loopback address, a setting out of range; \
            one line on stderr says which).
            Only loopback targets and sources (127.0.0.0/8) are accepted. See docs/security.md.
            """
    )

    @OptionGroup var attack: AttackOptions<FloodProfile>

    /// Exits 0 or 2 as `AttackToolExit` says.
    static func main() { runAttackTool() }

    @Option(help: "The legitimate client's user name.")
    var user: String = "alice"

    @Option(help: "The legitimate client's password.")
    var password: String

    @Option(help: "The user the INVITEs call (default: --user).")
    var callee: String?

    @Option(help: "The domain of the Request-URIs, From and To (the server's realm).")
    var domain: String = "localhost"

    @Option(help: "Seconds of probing before the flood starts.")
    var baseline: Double = 3

    @Option(name: .customLong("linger-idle"), help: "After the flood, stop once nothing came back for this long.")
    var lingerIdle: Double = 5

    @Option(name: .customLong("linger-max"), help: "After the flood, stop after this long at most.")
    var lingerMax: Double = 40

    @Option(help: "The server's process id, for its VmRSS before, at peak and after.")
    var pid: Int32?

    func run() throws {
        let configuration = try FloodConfiguration(
            target: attack.targetEndpoint(), floodSource: attack.source(), probeSource: attack.probeSource(),
            rate: attack.rate, duration: attack.duration, baseline: baseline, user: user, password: password,
            callee: callee, domain: domain, probeInterval: attack.probeInterval, probeTimeout: attack.probeTimeout,
            lingerIdle: lingerIdle, lingerMax: lingerMax, pid: pid)
        let flood = try FloodRun(configuration)
        let start = "sip-flood: \(baseline) s baseline, \(attack.rate)/s for \(attack.duration) s, " +
            "then up to \(lingerMax) s for the last answers\n"
        FileHandle.standardError.write(Data(start.utf8))
        print(try flood.run().report)
    }
}
