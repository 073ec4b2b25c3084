/// Applies `SIPWAKE_<SECTION>_<KEY>` environment variables on top of the file's values.
///
/// Strings are taken as they are; integers are decimal; booleans are `true` or `false`
/// (any letter case); arrays are comma-separated, each element trimmed, empty ones
/// dropped (so "" is an empty array). A variable that starts with `SIPWAKE_` and names
/// no key is an error, except the ones in `SipwakeConfig.reservedEnvironmentVariables`.
enum EnvironmentReader {
    static let prefix = "SIPWAKE_"

    static func apply(_ environment: [String: String], to raw: inout RawConfig, file: String) throws(ConfigError) {
        for (name, text) in environment.sorted(by: { $0.key < $1.key }) where name.hasPrefix(prefix) {
            if SipwakeConfig.reservedEnvironmentVariables.contains(name) { continue }
            guard let key = ConfigSchema.key(environmentVariable: name) else {
                var message = "unknown setting: no configuration key is named by this variable"
                let names = ConfigSchema.keys.map(\.environmentVariable)
                if let guess = ConfigSchema.suggestion(for: name, among: names) {
                    message += " (did you mean \(guess)?)"
                }
                throw ConfigError(
                    kind: .unknownEnvironmentVariable, file: file, environmentVariable: name, message: message)
            }
            guard let value = parse(text, as: key.kind) else {
                throw ConfigError(
                    kind: .wrongType, file: file, key: key.path, environmentVariable: name,
                    message: "expected \(key.kind.expectation), got '\(text)'")
            }
            raw.set(key, value, from: .environment(name))
        }
    }

    private static func parse(_ text: String, as kind: ConfigValueKind) -> ConfigValue? {
        let trimmed = text.trimmingWhitespace()
        switch kind {
        case .string:
            return .string(text)
        case .integer:
            guard let integer = Int(trimmed) else { return nil }
            return .integer(integer)
        case .boolean:
            switch trimmed.lowercased() {
            case "true": return .boolean(true)
            case "false": return .boolean(false)
            default: return nil
            }
        case .stringArray:
            let elements = text.split(separator: ",", omittingEmptySubsequences: false)
                .map { String($0).trimmingWhitespace() }
                .filter { !$0.isEmpty }
            return .strings(elements)
        }
    }
}

private extension String {
    func trimmingWhitespace() -> String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
