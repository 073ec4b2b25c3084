import Model
import Ports

/// An outcome typed on the command line, as `calls list` shows it.
enum CallsOutcomeArgument {
    static func parse(_ text: String) throws -> CallOutcome {
        guard let outcome = CallOutcome(name: text) else {
            throw CLIError("invalid --outcome '\(text)': use one of \(CallOutcome.names)")
        }
        return outcome
    }
}
