/// Finds the line on which a table or key is defined in TOML text.
///
/// TOMLKit reports positions for syntax errors only, so this scans the (already
/// valid) text itself: table headers, `key =` and `dotted.key =` lines, skipping
/// the insides of multi-line strings and arrays. It is a best effort for error
/// messages; a key it cannot place gets no line number, never a wrong one.
struct TOMLKeyLocator {
    private var lines: [String: Int] = [:]

    init(text: String) {
        var table: [String] = []
        var scanner = TOMLValueScanner()
        var lineNumber = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = Substring(rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine)
            if scanner.isInsideValue {
                scanner.scan(line)
                continue
            }
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            if trimmed.hasPrefix("[") {
                let isArrayHeader = trimmed.hasPrefix("[[")
                let open = trimmed.dropFirst(isArrayHeader ? 2 : 1)
                guard let close = TOMLKeyLocator.unquotedIndex(of: "]", in: open) else { continue }
                table = TOMLKeyLocator.keyParts(open[..<close])
                record(table, lineNumber)
                continue
            }
            guard let equals = TOMLKeyLocator.unquotedIndex(of: "=", in: trimmed) else { continue }
            let parts = TOMLKeyLocator.keyParts(trimmed[..<equals])
            guard !parts.isEmpty else { continue }
            for length in 1...parts.count { record(table + parts.prefix(length), lineNumber) }
            scanner.scan(trimmed[trimmed.index(after: equals)...])
        }
    }

    /// The line of `path` (`["sip"]` for a table, `["sip", "listen"]` for a key), 1-based.
    func line(of path: [String]) -> Int? { lines[path.joined(separator: "\u{0}")] }

    private mutating func record(_ path: [String], _ line: Int) {
        let joined = path.joined(separator: "\u{0}")
        if lines[joined] == nil { lines[joined] = line }
    }

    /// `a."b.c" . d` → ["a", "b.c", "d"].
    private static func keyParts(_ text: Substring) -> [String] {
        var parts: [String] = []
        var current = ""
        var quote: Character?
        for character in text {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "." {
                parts.append(current.trimmingSpaces())
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current.trimmingSpaces())
        return parts.contains(where: \.isEmpty) ? [] : parts
    }

    private static func unquotedIndex(of target: Character, in text: Substring) -> Substring.Index? {
        var quote: Character?
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if let open = quote {
                if character == "\\", open == "\"" {
                    index = text.index(after: index)
                    if index == text.endIndex { break }
                } else if character == open {
                    quote = nil
                }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == target {
                return index
            }
            index = text.index(after: index)
        }
        return nil
    }
}

private extension String {
    func trimmingSpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
