/// What went wrong while loading the configuration.
public enum ConfigErrorKind: Sendable, Hashable {
    /// The file could not be read.
    case unreadable
    /// The file is not valid TOML (`line` and `column` say where).
    case syntax
    /// A table in the file that is none of the known sections.
    case unknownSection
    /// A key in a known section that the section does not have.
    case unknownKey
    /// A `SIPWAKE_` environment variable that names no key.
    case unknownEnvironmentVariable
    /// A value of the wrong TOML type, or an environment value that does not parse as it.
    case wrongType
    /// A value of the right type that is out of range or otherwise not acceptable.
    case invalidValue
    /// A file the configuration names (TLS certificate or key) is missing or unreadable.
    case missingFile
}
