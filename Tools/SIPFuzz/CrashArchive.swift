import Foundation
import SIPAttackSupport

/// Saves the inputs that preceded a crash or a stall, each as a file
/// `sip-fuzz --replay` sends again, with a README naming the event, the order,
/// the transports and connections.
public struct CrashArchive {
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    /// `0007.c3.tcp.sip`: seventh in order, on TCP connection 3;
    /// `0008.udp.sip`: a datagram.
    public static func fileName(order: Int, input: FuzzInput) -> String {
        let number = String(format: "%04d", order)
        let connection = input.connection.map { ".c\($0)" } ?? ""
        return "\(number)\(connection).\(input.transport.rawValue).sip"
    }

    /// Writes one folder for `event` and returns its path.
    public func save(event: FuzzEvent, inputs: [SentInput], configuration: FuzzConfiguration, index: Int) throws -> String {
        let stamp = Self.timestamp()
        let folder = (directory as NSString).appendingPathComponent("\(event.kind.rawValue)-\(stamp)-seed\(configuration.seed)-\(index)")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var rows: [String] = []
        for (offset, sent) in inputs.enumerated() {
            let name = Self.fileName(order: offset + 1, input: sent.input)
            let path = (folder as NSString).appendingPathComponent(name)
            guard FileManager.default.createFile(atPath: path, contents: Data(sent.input.bytes)) else {
                throw AttackToolError.file(path: path, reason: "could not be written")
            }
            let connection = sent.input.connection.map(String.init) ?? "-"
            let before = String(format: "%.3f", event.at - sent.sentAt)
            let mutations = sent.input.mutations.map(\.rawValue).joined(separator: ",")
            rows.append("| \(name) | \(sent.input.transport.rawValue) | \(connection) | \(before) | \(sent.input.sequence) | " +
                        "\(sent.input.seed.rawValue) | \(mutations.isEmpty ? "none" : mutations) | \(sent.input.bytes.count) |")
        }
        let tls = configuration.tlsTarget.map { " --tls-port \($0.port)" } ?? ""
        let readme = """
            # sip-fuzz: \(event.kind.rawValue)

            \(event.reason) (seed \(configuration.seed), target \(configuration.target)).
            These are the \(inputs.count) inputs sent since the last liveness probe the server answered was
            sent, and the \(configuration.keep) before them, in the order they were sent (file name order).
            `.cN` is the fuzzer's connection N of that transport: files with the same N went over one
            connection, in order; a `.udp.sip` file is one datagram.

            Replay them all, in order, against a server started the same way:

                sip-fuzz --replay \(folder)/*.sip --target \(configuration.target)\(tls)

            Then one at a time to find the culprit, and copy it to Tests/IntegrationTests/FuzzRegressions/
            (docs/security.md).

            | file | transport | connection | sent (s before the event) | input number | seed | mutations | bytes |
            |---|---|---|---:|---:|---|---|---:|
            \(rows.joined(separator: "\n"))

            """
        try readme.write(toFile: (folder as NSString).appendingPathComponent("README.md"), atomically: true, encoding: .utf8)
        return folder
    }

    /// UTC, e.g. 20260102T030405Z.
    static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        strftime(&buffer, buffer.count, "%Y%m%dT%H%M%SZ", &parts)
        return String(cString: buffer)
    }
}
