/// The TOML type a key takes, with its range for integers.
enum ConfigValueKind: Sendable {
    case string
    case integer(ClosedRange<Int>)
    case boolean
    case stringArray

    /// "a string", "an integer", ... for error messages.
    var expectation: String {
        switch self {
        case .string: "a string"
        case .integer: "an integer"
        case .boolean: "true or false"
        case .stringArray: "an array of strings"
        }
    }
}
