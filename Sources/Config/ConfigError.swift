/// A configuration problem, with where it came from.
///
/// `description` is the text to show the operator:
///
///     etc/sipwake.toml:3: [sip] listen: 'udp:1.2.3' is not a valid listen address (expected udp|tcp|tls:HOST:PORT)
///     etc/sipwake.toml:12: unknown key 'listn' in [sip] (did you mean 'listen'?)
///     SIPWAKE_AUTH_ENABLED: expected true or false, got 'yes please'
public struct ConfigError: Error, Equatable, CustomStringConvertible {
    public var kind: ConfigErrorKind
    /// The configuration file (as given to the loader); "" when none was found.
    public var file: String
    /// The key concerned, dotted: `sip.listen`; a section name for section problems; nil
    /// for syntax and unreadable-file errors.
    public var key: String?
    /// 1-based line in `file`, when known.
    public var line: Int?
    /// 1-based column in `file`, for syntax errors.
    public var column: Int?
    /// The environment variable the offending value came from, if it did.
    public var environmentVariable: String?
    /// What is wrong, naming the key (`[sip] listen: ...`).
    public var message: String

    public init(
        kind: ConfigErrorKind, file: String, key: String? = nil, line: Int? = nil, column: Int? = nil,
        environmentVariable: String? = nil, message: String
    ) {
        self.kind = kind
        self.file = file
        self.key = key
        self.line = line
        self.column = column
        self.environmentVariable = environmentVariable
        self.message = message
    }

    /// The file could not be read.
    public static func unreadable(file: String, reason: String) -> ConfigError {
        ConfigError(kind: .unreadable, file: file, message: "cannot read the configuration file: \(reason)")
    }

    public var description: String {
        if let environmentVariable { return "\(environmentVariable): \(message)" }
        if file.isEmpty { return message }
        var location = file
        if let line {
            location += ":\(line)"
            if let column { location += ":\(column)" }
        }
        return "\(location): \(message)"
    }
}
