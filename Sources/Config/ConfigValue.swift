/// A value read from the file or the environment, before validation.
enum ConfigValue: Sendable, Equatable {
    case string(String)
    case integer(Int)
    case boolean(Bool)
    case strings([String])
}
