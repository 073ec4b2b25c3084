/// Where a configuration value came from, for error messages.
enum ConfigValueSource: Sendable, Equatable {
    /// The built-in default.
    case defaultValue
    /// The file, at this line when the locator found it.
    case file(line: Int?)
    /// This environment variable.
    case environment(String)
}
