import ArgumentParser
import Foundation

/// How `sip-fuzz` and `sip-flood` end. A run that went to its end exits 0;
/// `sip-fuzz` exits 1 when the server crashed or stalled, and for nothing
/// else. Whatever kept a tool from doing its run exits 2, with one line on
/// stderr that says why: a usage error (an unknown or missing option, a value
/// that does not parse), a setting out of its range, an address off loopback,
/// a missing `--tls-port`, a target that does not answer, a socket or file
/// that could not be used.
public enum AttackToolExit {
    /// The status of a tool that could not do its run.
    public static let cannotRun: Int32 = 2
}

extension ParsableCommand {
    /// Parses the command line and runs the tool, exiting as `AttackToolExit`
    /// says: `--help` prints the help and exits 0, an `ExitCode` that `run()`
    /// throws exits with its status, any other error exits 2.
    public static func runAttackTool(_ arguments: [String]? = nil) -> Never {
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
            exit(withError: nil)
        } catch let code as ExitCode {
            exit(withError: code)
        } catch {
            if exitCode(for: error) == .success { exit(withError: error) }
            let text = message(for: error).split(whereSeparator: \.isNewline)
                .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            let name = configuration.commandName ?? "\(Self.self)"
            let hint = exitCode(for: error) == .validationFailure ? " (see \(name) --help)" : ""
            FileHandle.standardError.write(Data("\(name): error: \(text)\(hint)\n".utf8))
            Foundation.exit(AttackToolExit.cannotRun)
        }
    }
}
