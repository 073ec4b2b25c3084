import Foundation

/// A duration typed by an operator: a positive whole number and a unit,
/// `s`, `m`, `h` or `d` (`3600s`, `90m`, `12h`, `30d`).
enum DurationArgument {
    private static let unitSeconds: [Character: Int] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
    /// Ten years: anything longer is a typo, and keeps the product far from overflow.
    private static let maximum = 3650 * 86_400

    static func seconds(_ text: String, option: String) throws -> TimeInterval {
        let problem = "invalid \(option) '\(text)': use a positive whole number followed by s, m, h or d (e.g. 30d, 12h, 90m, 3600s)"
        guard let unit = text.last, let scale = unitSeconds[unit] else { throw CLIError(problem) }
        let digits = text.dropLast()
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
              let value = Int(digits), value > 0 else { throw CLIError(problem) }
        guard value * scale <= maximum else { throw CLIError("invalid \(option) '\(text)': at most 3650d") }
        return TimeInterval(value * scale)
    }
}
