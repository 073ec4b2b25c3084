import ArgumentParser
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
            Prints one Markdown block for docs/benchmarks.md. Exit status: 0 after a run, 2 on a usage error.
            Only loopback targets and sources (127.0.0.0/8) are accepted. See docs/security.md.
            """
    )

    @Option(help: "The server, HOST:PORT (loopback only).")
    var target: String = "127.0.0.1:5060"

    @Option(help: "INVITEs per second.")
    var rate: Double = 20000

    @Option(help: "Seconds of flooding.")
    var duration: Double = 10

    @Option(help: "Loopback address the INVITEs come from.")
    var from: String = "127.0.0.3"

    @Option(name: .customLong("probe-from"), help: "Loopback address of the legitimate client.")
    var probeFrom: String = "127.0.0.1"

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

    @Option(name: .customLong("probe-interval"), help: "Seconds between the legitimate client's REGISTERs.")
    var probeInterval: Double = 0.1

    @Option(name: .customLong("probe-timeout"), help: "Seconds each REGISTER may wait for its final response.")
    var probeTimeout: Double = 2

    @Option(name: .customLong("linger-idle"), help: "After the flood, stop once nothing came back for this long.")
    var lingerIdle: Double = 5

    @Option(name: .customLong("linger-max"), help: "After the flood, stop after this long at most.")
    var lingerMax: Double = 40

    @Option(help: "The server's process id, for its VmRSS before, at peak and after.")
    var pid: Int32?

    func run() throws {
        let configuration = try FloodConfiguration(
            target: LoopbackEndpoint(parsing: target), floodSource: .address(from), probeSource: .address(probeFrom),
            rate: rate, duration: duration, baseline: baseline, user: user, password: password, callee: callee,
            domain: domain, probeInterval: probeInterval, probeTimeout: probeTimeout, lingerIdle: lingerIdle,
            lingerMax: lingerMax, pid: pid)
        let flood = try FloodRun(configuration)
        let start = "sip-flood: \(baseline) s baseline, \(rate)/s for \(duration) s, then up to \(lingerMax) s for the last answers\n"
        FileHandle.standardError.write(Data(start.utf8))
        print(try flood.run().report)
    }
}
