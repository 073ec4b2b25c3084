import Foundation

/// The whole configuration of a sipwake server: `etc/sipwake.toml` plus `SIPWAKE_*`
/// environment overrides, validated.
///
/// Relative paths (`[database] path`, `[tls] certificate` and `key`) are resolved
/// against the directory that contains the configuration file, not the working
/// directory, so the service finds the same files whoever starts it from wherever.
/// The shipped `etc/sipwake.toml` therefore puts the database in `<repo>/var/`.
public struct SipwakeConfig: Sendable, Hashable {
    public var sip: SIPSection
    public var tls: TLSSection
    public var registrar: RegistrarSection
    public var auth: AuthSection
    public var database: DatabaseSection
    public var log: LogSection
    public var http: HTTPSection
    public var tuples: TuplesSection
    public var calls: CallsSection
    public var push: PushSection
    /// `[apps.NAME]`, in file order.
    public var apps: [AppSection]
    /// `[webhook]` and its `[webhook.domains."NAME"]` overrides.
    public var webhook: WebhookSection

    public init(
        sip: SIPSection = SIPSection(), tls: TLSSection = TLSSection(), registrar: RegistrarSection = RegistrarSection(),
        auth: AuthSection = AuthSection(), database: DatabaseSection = DatabaseSection(), log: LogSection = LogSection(),
        http: HTTPSection = HTTPSection(), tuples: TuplesSection = TuplesSection(),
        calls: CallsSection = CallsSection(), push: PushSection = PushSection(), apps: [AppSection] = [],
        webhook: WebhookSection = WebhookSection()
    ) {
        self.sip = sip
        self.tls = tls
        self.registrar = registrar
        self.auth = auth
        self.database = database
        self.log = log
        self.http = http
        self.tuples = tuples
        self.calls = calls
        self.push = push
        self.apps = apps
        self.webhook = webhook
    }

    /// Every key at its default. `database.path` is the unresolved `../var/sipwake.sqlite`
    /// here; `parse` and `load` resolve it against the configuration file's directory.
    public static let defaults = SipwakeConfig()

    /// `SIPWAKE_` variables that are not configuration keys and are ignored by the
    /// loader: `SIPWAKE_CONFIG` is for the executable to choose the file.
    public static let reservedEnvironmentVariables: Set<String> = ["SIPWAKE_CONFIG"]

    /// Parses TOML text and applies environment overrides.
    ///
    /// - Parameters:
    ///   - text: the TOML document.
    ///   - file: the file the text came from. It names the file in errors and is the base
    ///     of relative paths (its directory; a relative `file` is taken against the
    ///     current directory).
    ///   - environment: the process environment (pass `ProcessInfo.processInfo.environment`).
    ///     `SIPWAKE_<SECTION>_<KEY>` overrides `[section] key`, e.g. `SIPWAKE_SIP_LISTEN`,
    ///     `SIPWAKE_REGISTRAR_MIN_EXPIRES`; arrays are comma-separated. Any other variable
    ///     starting with `SIPWAKE_` is an error (but see `reservedEnvironmentVariables`).
    public static func parse(_ text: String, file: String, environment: [String: String]) throws(ConfigError) -> SipwakeConfig {
        var raw = try TOMLReader.read(text, file: file)
        try EnvironmentReader.apply(environment, to: &raw, file: file)
        let builder = ConfigBuilder(
            raw: raw, file: file,
            directory: PathResolver.directory(of: file, currentDirectory: FileManager.default.currentDirectoryPath),
            isReadableFile: { FileManager.default.isReadableFile(atPath: $0) })
        return try builder.build()
    }

    /// Reads the file at `path` and parses it (see `parse`). A file that cannot be read,
    /// or is not UTF-8, throws a `ConfigError` of kind `.unreadable`.
    public static func load(path: String, environment: [String: String]) throws(ConfigError) -> SipwakeConfig {
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        guard files.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ConfigError.unreadable(file: path, reason: "no such file")
        }
        guard !isDirectory.boolValue else { throw ConfigError.unreadable(file: path, reason: "it is a directory") }
        guard let data = files.contents(atPath: path) else {
            throw ConfigError.unreadable(file: path, reason: "permission denied or I/O error")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigError.unreadable(file: path, reason: "not UTF-8 text")
        }
        return try parse(text, file: path, environment: environment)
    }
}
