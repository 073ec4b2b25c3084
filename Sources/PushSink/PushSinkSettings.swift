/// Where the push sink listens, where it writes what it receives, and how it answers.
public struct PushSinkSettings: Sendable, Equatable {
    public var host: String
    /// 0 picks a free port; ``PushSink/boundPort`` tells which.
    public var port: Int
    /// The send path; pushes to any path under `/pnm2/` are taken too.
    public var path: String
    /// A file to append one JSON line per request to, `-` for standard
    /// output, nil for no lines.
    public var output: String?
    /// Rules for particular device tokens.
    public var rules: [String: PushSinkRule]
    /// The rule for every other token.
    public var defaultRule: PushSinkRule

    public init(host: String = "127.0.0.1", port: Int = 8090, path: String = "/pnm2/send", output: String? = nil,
                rules: [String: PushSinkRule] = [:], defaultRule: PushSinkRule = .ok) {
        self.host = host
        self.port = port
        self.path = path
        self.output = output
        self.rules = rules
        self.defaultRule = defaultRule
    }
}
