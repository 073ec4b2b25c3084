import Storage

/// An outcome typed on the command line, as `calls list` shows it.
enum CallsOutcomeArgument {
    static func parse(_ text: String) throws -> CallOutcome {
        guard let outcome = CallOutcome(rawValue: text.lowercased()) else {
            let names = CallOutcome.allCases.map(\.rawValue).joined(separator: ", ")
            throw CLIError("invalid --outcome '\(text)': use one of \(names)")
        }
        return outcome
    }
}
