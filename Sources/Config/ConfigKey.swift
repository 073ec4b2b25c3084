/// One key of the configuration schema.
struct ConfigKey: Sendable {
    let section: String
    let name: String
    let kind: ConfigValueKind

    /// `sip.listen`.
    var path: String { "\(section).\(name)" }
    /// `[sip] listen`, as messages name it.
    var label: String { "[\(section)] \(name)" }
    /// `SIPWAKE_SIP_LISTEN`.
    var environmentVariable: String { "SIPWAKE_\(section.uppercased())_\(name.uppercased())" }
}
