import TOMLKit

/// Reads TOML text into a `RawConfig`: syntax, sections, keys and value types.
/// Values are not validated here (ranges, formats); `ConfigBuilder` does that.
enum TOMLReader {
    static func read(_ text: String, file: String) throws(ConfigError) -> RawConfig {
        let root: TOMLTable
        do {
            root = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigError(
                kind: .syntax, file: file, line: error.source.begin.line, column: error.source.begin.column,
                message: "invalid TOML: \(error.description)")
        } catch {
            throw ConfigError(kind: .syntax, file: file, message: "invalid TOML: \(error)")
        }

        let locator = TOMLKeyLocator(text: text)
        var raw = RawConfig()
        var problems: [ConfigError] = []

        for (sectionName, sectionValue) in root {
            let sectionLine = locator.line(of: [sectionName])
            guard ConfigSchema.sections.contains(sectionName) else {
                var message: String
                if sectionValue.type == .table {
                    message = "unknown section [\(sectionName)]"
                } else {
                    message = "unknown key '\(sectionName)' at the top level (keys belong in a section such as [sip])"
                }
                if let guess = ConfigSchema.suggestion(for: sectionName, among: ConfigSchema.sections) {
                    message += " (did you mean [\(guess)]?)"
                }
                problems.append(ConfigError(
                    kind: .unknownSection, file: file, key: sectionName, line: sectionLine, message: message))
                continue
            }
            if sectionName == "apps" {
                readApps(sectionValue, locator: locator, file: file, into: &raw, problems: &problems)
                continue
            }
            guard let section = sectionValue.table else {
                problems.append(ConfigError(
                    kind: .wrongType, file: file, key: sectionName, line: sectionLine,
                    message: "'\(sectionName)' must be a section ([\(sectionName)]), got \(describe(sectionValue))"))
                continue
            }
            for (name, value) in section {
                let line = locator.line(of: [sectionName, name])
                if sectionName == "webhook" && name == "domains" {
                    readWebhookDomains(value, locator: locator, file: file, into: &raw, problems: &problems)
                    continue
                }
                guard let key = ConfigSchema.key(section: sectionName, name: name) else {
                    var message = "unknown key '\(name)' in [\(sectionName)]"
                    let names = ConfigSchema.keys.filter { $0.section == sectionName }.map(\.name)
                    if let guess = ConfigSchema.suggestion(for: name, among: names) {
                        message += " (did you mean '\(guess)'?)"
                    }
                    problems.append(ConfigError(
                        kind: .unknownKey, file: file, key: "\(sectionName).\(name)", line: line, message: message))
                    continue
                }
                switch convert(value, to: key.kind) {
                case .success(let converted):
                    raw.set(key, converted, from: .file(line: line))
                case .failure(let problem):
                    let text = ConfigSchema.secretKeyNames.contains(name) ? Self.hiddenValue : problem.text
                    problems.append(ConfigError(
                        kind: .wrongType, file: file, key: key.path, line: line,
                        message: "\(key.label): expected \(key.kind.expectation), \(text)"))
                }
            }
        }

        // Report the first problem in the file, not the first in TOMLKit's (sorted) key order.
        if let first = problems.min(by: { ($0.line ?? Int.max) < ($1.line ?? Int.max) }) {
            throw first
        }
        return raw
    }

    /// `[apps.NAME]` tables: each a table of known keys.
    private static func readApps(_ value: TOMLValueConvertible, locator: TOMLKeyLocator, file: String,
                                 into raw: inout RawConfig, problems: inout [ConfigError]) {
        guard let apps = value.table else {
            problems.append(ConfigError(
                kind: .wrongType, file: file, key: "apps", line: locator.line(of: ["apps"]),
                message: "'apps' must be tables such as [apps.my-phone], got \(describe(value))"))
            return
        }
        for (name, appValue) in apps {
            let appLine = locator.line(of: ["apps", name])
            guard let table = appValue.table else {
                problems.append(ConfigError(
                    kind: .wrongType, file: file, key: "apps.\(name)", line: appLine,
                    message: "'\(name)' in [apps] must be a table ([apps.\(name)]), got \(describe(appValue))"))
                continue
            }
            guard AppNameSyntax.isValid(name) else {
                problems.append(ConfigError(
                    kind: .invalidValue, file: file, key: "apps.\(name)", line: appLine,
                    message: "[apps.\(name)]: an app's name is 1 to 32 lowercase letters, digits, '-' or '_'"))
                continue
            }
            var app = RawApp(name: name, line: appLine)
            (app.values, app.lines) = readKeys(of: table, at: ["apps", name], header: "[apps.\(name)]",
                                               schema: ConfigSchema.appKeys, locator: locator, file: file,
                                               problems: &problems)
            raw.apps.append(app)
        }
        raw.apps.sort { ($0.line ?? Int.max, $0.name) < ($1.line ?? Int.max, $1.name) }
    }

    /// The keys of one named table (`[apps.NAME]` at `path` ["apps", NAME],
    /// `[webhook.domains."NAME"]`), each checked against `schema`: an unknown
    /// key (with a guess) or a wrong type is a problem naming the key, and a
    /// secret's value is never quoted. Returns the good values and their lines.
    private static func readKeys(of table: TOMLTable, at path: [String], header: String,
                                 schema: [String: ConfigValueKind], locator: TOMLKeyLocator, file: String,
                                 problems: inout [ConfigError]) -> ([String: ConfigValue], [String: Int]) {
        var values: [String: ConfigValue] = [:]
        var lines: [String: Int] = [:]
        for (keyName, keyValue) in table {
            let line = locator.line(of: path + [keyName])
            let key = (path + [keyName]).joined(separator: ".")
            guard let kind = schema[keyName] else {
                var message = "unknown key '\(keyName)' in \(header)"
                if let guess = ConfigSchema.suggestion(for: keyName, among: schema.keys.sorted()) {
                    message += " (did you mean '\(guess)'?)"
                }
                problems.append(ConfigError(kind: .unknownKey, file: file, key: key, line: line, message: message))
                continue
            }
            switch convert(keyValue, to: kind) {
            case .success(let converted):
                values[keyName] = converted
                if let line { lines[keyName] = line }
            case .failure(let problem):
                let text = ConfigSchema.secretKeyNames.contains(keyName) ? hiddenValue : problem.text
                problems.append(ConfigError(
                    kind: .wrongType, file: file, key: key, line: line,
                    message: "\(header) \(keyName): expected \(kind.expectation), \(text)"))
            }
        }
        return (values, lines)
    }

    /// What a type error about a secret says instead of quoting the value.
    static let hiddenValue = "got something else (not shown: it holds secrets)"

    /// `[webhook.domains."NAME"]` tables: each a table of known keys.
    private static func readWebhookDomains(_ value: TOMLValueConvertible, locator: TOMLKeyLocator, file: String,
                                           into raw: inout RawConfig, problems: inout [ConfigError]) {
        let path = ["webhook", "domains"]
        guard let domains = value.table else {
            problems.append(ConfigError(
                kind: .wrongType, file: file, key: "webhook.domains", line: locator.line(of: path),
                message: "'domains' in [webhook] must be tables such as [webhook.domains.\"example.com\"], got \(describe(value))"))
            return
        }
        for (name, domainValue) in domains {
            let domainLine = locator.line(of: path + [name])
            guard let table = domainValue.table else {
                problems.append(ConfigError(
                    kind: .wrongType, file: file, key: "webhook.domains.\(name)", line: domainLine,
                    message: "'\(name)' in [webhook.domains] must be a table ([webhook.domains.\"\(name)\"]), got \(describe(domainValue))"))
                continue
            }
            var domain = RawWebhookDomain(name: name, line: domainLine)
            (domain.values, domain.lines) = readKeys(
                of: table, at: path + [name], header: "[webhook.domains.\"\(name)\"]",
                schema: ConfigSchema.webhookDomainKeys, locator: locator, file: file, problems: &problems)
            raw.webhookDomains.append(domain)
        }
        raw.webhookDomains.sort { ($0.line ?? Int.max, $0.name) < ($1.line ?? Int.max, $1.name) }
    }

    private struct TypeProblem: Error {
        let text: String
    }

    private static func convert(_ value: TOMLValueConvertible, to kind: ConfigValueKind) -> Result<ConfigValue, TypeProblem> {
        switch kind {
        case .string:
            if let string = value.string { return .success(.string(string)) }
        case .integer:
            if let integer = value.int { return .success(.integer(integer)) }
        case .boolean:
            if let boolean = value.bool { return .success(.boolean(boolean)) }
        case .stringArray:
            if let array = value.array {
                var strings: [String] = []
                for (index, element) in array.enumerated() {
                    guard let string = element.string else {
                        return .failure(TypeProblem(text: "but element \(index + 1) is \(describe(element))"))
                    }
                    strings.append(string)
                }
                return .success(.strings(strings))
            }
        }
        return .failure(TypeProblem(text: "got \(describe(value))"))
    }

    /// "a string ('big')", "an integer (5)", "a table", for messages.
    static func describe(_ value: TOMLValueConvertible) -> String {
        switch value.type {
        case .string: "a string ('\(value.string ?? "")')"
        case .int: "an integer (\(value.int.map(String.init) ?? "?"))"
        case .double: "a floating-point number (\(value.double.map { String($0) } ?? "?"))"
        case .bool: "a boolean (\(value.bool.map { String($0) } ?? "?"))"
        case .array: "an array"
        case .table: "a table"
        case .date: "a date"
        case .time: "a time"
        case .dateTime: "a date-time"
        }
    }
}
